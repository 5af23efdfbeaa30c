// How a day gets its money. A new day is priced by the card in force for its courier on its
// date; an edited day keeps the total it was saved with unless something that decides pay
// changed (issue 12: editing the notes of a day logged before a rate change must never
// re-price it with today's rates). Pure, so the rule has its own tests.
import { formatShortDate } from '@/lib/format';
import { FIRST_CARD_FROM, parcelsPaid, priceDay, type IdentifiedCard, type PayInputs } from './pay';
import { sameBands } from './size-bands';
import type { EntryContent, LocalCourier, RateCardContent } from '@/sync/types';

/** A day as typed: everything stored except what pricing decides. */
export type DayDraft = Omit<EntryContent, 'total' | 'rateCardId'>;

/**
 * The fields the card prices (notes do not; the driver's extra is added on top of the card's
 * part, so changing only the extra moves the total by exactly that and re-prices nothing).
 */
export const PAY_INPUTS = ['date', 'courierId', 'stops', 'parcels', 'collections', 'failed', 'startTime', 'finishTime'] as const;

export function payInputsChanged(saved: DayDraft, edited: DayDraft): boolean {
  // Parcels by band price a card that pays by band, so a change of band is a change of pay.
  return PAY_INPUTS.some((field) => saved[field] !== edited[field]) || !sameBands(saved.bands, edited.bands);
}

/** A new day: priced with the card in force for its courier on its date (no card: the extra only). */
export function priceNewDay(day: DayDraft, cards: readonly IdentifiedCard[]): EntryContent {
  return { ...day, ...priceDay(cards, day.courierId, day) };
}

/**
 * An edited day. With its pay inputs as saved, its card and the card's part of the total stay
 * exactly as they were, whatever the cards say now (a new extra replaces the old one on top);
 * otherwise it is priced afresh with the card in force on its (possibly new) date for its
 * (possibly new) courier.
 */
export function priceEditedDay(saved: EntryContent, edited: DayDraft, cards: readonly IdentifiedCard[]): EntryContent {
  if (!payInputsChanged(saved, edited)) return { ...edited, total: saved.total - saved.extra + edited.extra, rateCardId: saved.rateCardId };
  return priceNewDay(edited, cards);
}

/**
 * The courier a new day defaults to: the one of the most recently saved day ("the last used"),
 * while it is still a live courier; else the default courier (id = the user's id); else the
 * first courier; and with no courier on the device yet, the user's id, which the server's
 * default courier will have.
 */
export function lastUsedCourierId(
  entries: readonly { courierId: string; updatedAt: string }[],
  couriers: readonly Pick<LocalCourier, 'id'>[],
  userId: string,
): string {
  const live = new Set(couriers.map((courier) => courier.id));
  let latest: { courierId: string; updatedAt: string } | null = null;
  for (const entry of entries) {
    if (live.has(entry.courierId) && (!latest || entry.updatedAt > latest.updatedAt)) latest = entry;
  }
  if (latest) return latest.courierId;
  if (live.has(userId) || couriers.length === 0) return userId;
  return couriers[0]!.id;
}

/**
 * The ways of being paid the card in force uses, so the form asks for those first (and requires
 * the ones a day is priced by) and leaves the rest behind "More details". Stops count for a card
 * that pays per stop, and for one whose parcel cap is per stop or whose peak adds per stop.
 */
export interface PaidFields {
  stops: boolean;
  /** Parcels as one count (a card paying per parcel, not by band). */
  parcels: boolean;
  /** Parcels by size band (a card paying by band): the form asks for the bands it prices. */
  bands: boolean;
  collections: boolean;
  failed: boolean;
  times: boolean;
}

export function paidFields(card: Pick<RateCardContent, 'perStop' | 'perParcel' | 'bandRates' | 'parcelCapPerStop' | 'perCollection' | 'perFailed' | 'hourly' | 'peaks'> | null): PaidFields {
  const byBand = (card?.bandRates ?? null) !== null;
  return {
    stops: card !== null && (card.perStop !== null || ((card.perParcel !== null || byBand) && card.parcelCapPerStop !== null) || card.peaks.some((peak) => peak.extraPerStop !== null)),
    parcels: (card?.perParcel ?? null) !== null && !byBand,
    bands: byBand,
    collections: (card?.perCollection ?? null) !== null,
    // 0 is "failed items are unpaid" (Parcelforce): nothing to count for pay.
    failed: (card?.perFailed ?? 0) > 0,
    times: (card?.hourly ?? null) !== null,
  };
}

/**
 * Why a capped day pays fewer parcels than were delivered ("80 of 95 parcels paid: up to 2 a
 * stop on 40 stops"), or null when the cap did not bite (or the card has none).
 */
export function capNote(card: Pick<RateCardContent, 'perParcel' | 'bandRates' | 'parcelCapPerStop'> | null, day: Pick<PayInputs, 'parcels' | 'stops'>): string | null {
  if (!card || (card.perParcel === null && (card.bandRates ?? null) === null) || card.parcelCapPerStop === null || day.parcels === null) return null;
  const paid = parcelsPaid(card, day);
  if (paid >= day.parcels) return null;
  return `${count.format(paid)} of ${count.format(day.parcels)} parcels paid: up to ${count.format(card.parcelCapPerStop)} a stop on ${count.format(day.stops)} ${day.stops === 1 ? 'stop' : 'stops'}`;
}

const count = new Intl.NumberFormat('en-GB');

/** The words under the form saying what will price the day (the card in force, or none). */
export function pricingNote(card: IdentifiedCard | null, courierName: string): string {
  if (!card) return 'No rate card for this date — only extra pay counts';
  const from = card.validFrom <= FIRST_CARD_FROM ? 'from the start' : `from ${formatShortDate(card.validFrom)}`;
  return `Priced with ${courierName} rates ${from}`;
}
