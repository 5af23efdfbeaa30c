// The default courier: every account has one, with the account's own id as its id and as the
// id of its first rate card (crates/server/migrations/*/0012_couriers.sql and account creation
// make the same records). Being derived from the user, the server, an upgraded device and a
// device offline all name it alike, so it is never made twice.
import { STARTER_RECORDS } from './contract.generated';
import type { CourierContent, EntryContent, StatementCheckContent, LocalCourier, LocalRateCard, PayTier, RateCardContent } from './types';

/** The default courier as the server makes it (generated from crates/domain/src/defaults.rs): "My courier", paid weekly from a Sunday. */
export const DEFAULT_COURIER: Readonly<CourierContent> = Object.freeze({ ...STARTER_RECORDS[0].data });

type EntryPayFields = Omit<EntryContent, 'date' | 'stops' | 'extra' | 'notes' | 'total'>;
type StatementFieldsBeforeCouriers = Omit<StatementCheckContent, 'periodStart' | 'periodEnd' | 'paid' | 'stops' | 'reference'>;

/** What a day logged before couriers existed means now: the default courier, priced by its first card, and no separate shift. */
export function entryFieldsBeforeCouriers(userId: string): EntryPayFields {
  return { courierId: userId, rateCardId: userId, parcels: null, collections: null, failed: null, startTime: null, finishTime: null, separateShift: false, bands: null };
}

/** What a statement check made before couriers existed means now: a statement of the default courier. */
export function statementCheckFieldsBeforeCouriers(userId: string): StatementFieldsBeforeCouriers {
  return { courierId: userId, parcels: null, collections: null, deductions: null, status: 'unchecked', note: '' };
}

/** "From the start": the validFrom of a courier's first card, before any day can be logged. */
export const FIRST_CARD_FROM = '2000-01-01';

/**
 * The default courier and its first card as the server made them, for a device that has not
 * pulled them yet (the first seconds after sign-up, or a first pull that failed offline). They
 * carry the ids the server's records have, so a day priced with them points at the real records
 * and has the total the real card gives; the pull replaces them. `tiers` are the profile's:
 * the server's first card holds the same.
 */
export function defaultsBeforeFirstPull(userId: string, tiers: readonly PayTier[]): { courier: LocalCourier; card: LocalRateCard } {
  const stamps = { createdAt: '', updatedAt: '', deleted: 0, syncState: 'synced', server: null } as const;
  return { courier: { ...DEFAULT_COURIER, id: userId, ...stamps }, card: { ...firstCard(userId, tiers), id: userId, ...stamps } };
}

/** A courier's first card: per-stop `tiers` from the start and no other way of paying. */
export function firstCard(courierId: string, tiers: readonly PayTier[]): RateCardContent {
  return {
    courierId,
    validFrom: FIRST_CARD_FROM,
    label: '',
    perStop: tiers.map((tier) => ({ ...tier })),
    perParcel: null,
    parcelCapPerStop: null,
    perCollection: null,
    perFailed: null,
    dayRate: null,
    bandRates: null,
    hourly: null,
    peaks: [],
  };
}
