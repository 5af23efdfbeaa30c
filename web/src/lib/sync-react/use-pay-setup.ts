// How the driver is paid, as every screen reads it: their couriers, the couriers' rate cards
// and deductions, live from the device's database. Shared here because entries, statement
// checks, summaries and the courier settings all price or net against the same records.
import { useLiveQuery } from 'dexie-react-hooks';
import { byValidFrom, DEFAULT_TIERS } from '@/core/pay/pay';
import type { LocalDb } from '@/sync/db';
import { defaultsBeforeFirstPull } from '@/sync/default-courier';
import type { LocalCourier, LocalDeduction, LocalRateCard } from '@/sync/types';
import { useSyncHandle } from './use-sync';

export interface PaySetup {
  /** Live couriers, the default courier (id = the user's id) first, then by name. */
  couriers: LocalCourier[];
  /** Live rate cards of every courier, oldest validFrom first. */
  cards: LocalRateCard[];
  /** Live deductions of every courier, oldest first. */
  deductions: LocalDeduction[];
}

/** Reads the pay setup once (commands and tests use this; screens use usePaySetup). */
export async function readPaySetup(db: LocalDb): Promise<PaySetup> {
  const [couriers, cards, deductions] = await Promise.all([
    db.couriers.where('deleted').equals(0).toArray(),
    db.rateCards.where('deleted').equals(0).toArray(),
    db.deductions.where('deleted').equals(0).toArray(),
  ]);
  await addDefaultsBeforeFirstPull(db, couriers, cards);
  couriers.sort((a, b) => (a.id === db.userId ? -1 : b.id === db.userId ? 1 : a.name.localeCompare(b.name)));
  cards.sort(byValidFrom);
  deductions.sort((a, b) => (a.from === b.from ? a.createdAt.localeCompare(b.createdAt) : a.from < b.from ? -1 : 1));
  return { couriers, cards, deductions };
}

/**
 * Until the first pull brings the default courier (even as a tombstone), the courier and first
 * card the server made at sign-up are added to `couriers` and `cards`, so a day logged in the
 * first seconds is paid (and exported) like any other.
 */
export async function addDefaultsBeforeFirstPull(db: LocalDb, couriers: LocalCourier[], cards: LocalRateCard[]): Promise<void> {
  const [pulledDefault, profile] = await Promise.all([db.couriers.get(db.userId), db.getDoc('profile')]);
  if (pulledDefault) return;
  const defaults = defaultsBeforeFirstPull(db.userId, profile?.data?.paymentConfig.tiers ?? DEFAULT_TIERS);
  couriers.push(defaults.courier);
  if (!cards.some((card) => card.id === db.userId)) cards.push(defaults.card);
}

/** The pay setup, updated as any of it changes; undefined on the first read. */
export function usePaySetup(): PaySetup | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(() => readPaySetup(db), [db]);
}
