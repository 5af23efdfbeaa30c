// Pay, in integer pence: tiered pay per stop (the server only bounds the tiers, in
// crates/domain/src/tiers.rs; pricing happens here, on the device),
// which rate card prices a day, and the price of a day with a card. A day's total is fixed
// when it is saved (PRODUCT.md); these functions are how it is computed, never how a stored
// total is re-read.
import type { PayTier, RateCardContent } from '@/sync/types';
import { SIZE_BANDS, bandTotal, type SizeBand, type SomeBands } from './size-bands';

export type { PayTier };
export { FIRST_CARD_FROM } from '@/sync/default-courier';

/** Spec §3: 110 stops at £1.98, then £1.48. */
export const DEFAULT_TIERS: readonly PayTier[] = Object.freeze([{ stopCount: 110, rate: 198 }, { rate: 148 }]);

/**
 * Pay for a day of `stops`: tier i pays its rate for the stops above what earlier tiers
 * covered, up to its own stop count; a tier without a stop count pays the rest. A stop count
 * that does not rise covers nothing, so a half-edited list never pays a stop twice.
 */
export function payFor(tiers: readonly PayTier[], stops: number): number {
  let paid = 0;
  let covered = 0;
  for (const tier of tiers) {
    const upper = Math.min(tier.stopCount ?? Number.POSITIVE_INFINITY, stops);
    if (upper > covered) {
      paid += tier.rate * (upper - covered);
      covered = upper;
    }
  }
  return paid;
}

/** What a card prices: the pay inputs of a day (an EntryContent fits). */
export interface PayInputs {
  date: string;
  stops: number;
  extra: number;
  parcels: number | null;
  collections: number | null;
  failed: number | null;
  startTime: string | null;
  finishTime: string | null;
  /** The parcels by size band (they add up to `parcels`); absent or null: not counted by band. */
  bands?: SomeBands | null;
}

/** A card with its id, as the device keeps it (a LocalRateCard fits). */
export type IdentifiedCard = RateCardContent & { id: string; deleted?: 0 | 1 };

/** `a * numerator / denominator` to the nearest penny, halves up (all values are ≥ 0). */
export function roundedShare(a: number, numerator: number, denominator: number): number {
  return Math.floor((2 * a * numerator + denominator) / (2 * denominator));
}

function minutesOf(time: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** Minutes worked from start to finish ("HH:MM"); a finish before the start is after midnight. */
export function workedMinutes(startTime: string | null, finishTime: string | null): number | null {
  if (startTime === null || finishTime === null) return null;
  const start = minutesOf(startTime);
  const finish = minutesOf(finishTime);
  if (start === null || finish === null) return null;
  return finish >= start ? finish - start : finish + 24 * 60 - start;
}

/** The parcels `card` pays for on `day`: all of them, or at most its cap a stop. */
export function parcelsPaid(card: Pick<RateCardContent, 'parcelCapPerStop'>, day: Pick<PayInputs, 'parcels' | 'stops'>): number {
  const parcels = day.parcels ?? 0;
  return card.parcelCapPerStop === null ? parcels : Math.min(parcels, card.parcelCapPerStop * day.stops);
}

/** What `card` pays for one parcel of `band`: its band rate, else its pay per parcel, else nothing. */
export function bandRate(card: Pick<RateCardContent, 'bandRates' | 'perParcel'>, band: SizeBand): number {
  return card.bandRates?.[band] ?? card.perParcel ?? 0;
}

/** One band's parcels on a day: counted, paid (after the card's cap), the card's rate and the pay. */
export interface BandPay {
  band: SizeBand;
  logged: number;
  paid: number;
  rate: number;
  amount: number;
}

/**
 * A day's parcels priced band by band, when the card pays by band and the day was counted by
 * band; null otherwise (its parcels are paid at the card's pay per parcel). A cap of parcels a
 * stop leaves the smallest parcels unpaid first, so a capped day is paid for its biggest ones.
 */
export function bandPay(card: Pick<RateCardContent, 'bandRates' | 'perParcel' | 'parcelCapPerStop'>, day: Pick<PayInputs, 'bands' | 'stops'>): BandPay[] | null {
  const bands = day.bands ?? null;
  if ((card.bandRates ?? null) === null || bands === null) return null;
  const logged = bandTotal(bands);
  let unpaid = logged - parcelsPaid(card, { parcels: logged, stops: day.stops });
  return SIZE_BANDS.map((band) => {
    const count = bands[band] ?? 0;
    const cut = Math.min(unpaid, count);
    unpaid -= cut;
    const paid = count - cut;
    const rate = bandRate(card, band);
    return { band, logged: count, paid, rate, amount: paid * rate };
  });
}

/** The card's pay for the day's parcels: band by band, or every paid parcel at its pay per parcel. */
export function parcelPay(card: RateCardContent, day: PayInputs): number {
  const byBand = bandPay(card, day);
  if (byBand) return byBand.reduce((total, band) => total + band.amount, 0);
  return (card.perParcel ?? 0) * parcelsPaid(card, day);
}

/**
 * The day's total with `card`: every way the card pays, then its peak (the first peak whose
 * dates hold the day: extra per stop, then the multiplier), then the driver's own extra.
 */
export function priceWithCard(card: RateCardContent, day: PayInputs): number {
  const minutes = workedMinutes(day.startTime, day.finishTime) ?? 0;
  let base =
    (card.perStop ? payFor(card.perStop, day.stops) : 0) +
    parcelPay(card, day) +
    (card.perCollection ?? 0) * (day.collections ?? 0) +
    (card.perFailed ?? 0) * (day.failed ?? 0) +
    (card.dayRate ?? 0) +
    (card.hourly === null ? 0 : roundedShare(card.hourly, minutes, 60));
  const peak = card.peaks.find((p) => p.from <= day.date && day.date <= p.to);
  if (peak) {
    base += (peak.extraPerStop ?? 0) * day.stops;
    if (peak.multiplierPercent !== null) base = roundedShare(base, peak.multiplierPercent, 100);
  }
  return base + day.extra;
}

/**
 * The card in force for `courierId` on `date`: its live card with the latest validFrom on or
 * before the date. Null before its first card: a card never reaches back before its own date,
 * so adding one can change no day before it. (A courier's first card is made "from the start",
 * FIRST_CARD_FROM, so every day has one unless the driver chose otherwise.)
 */
export function cardInForce<C extends IdentifiedCard>(cards: readonly C[], courierId: string, date: string): C | null {
  let inForce: C | null = null;
  for (const card of cards) {
    if (card.courierId !== courierId || card.deleted || card.validFrom > date) continue;
    if (!inForce || byValidFrom(card, inForce) > 0) inForce = card;
  }
  return inForce;
}


/** Orders cards by validFrom, then id, so two cards from one date always resolve the same way. */
export function byValidFrom(a: Pick<IdentifiedCard, 'validFrom' | 'id'>, b: Pick<IdentifiedCard, 'validFrom' | 'id'>): number {
  return a.validFrom === b.validFrom ? a.id.localeCompare(b.id) : a.validFrom < b.validFrom ? -1 : 1;
}

/** A day priced: its total and the card that priced it (null: no card, the total is the extra). */
export function priceDay<C extends IdentifiedCard>(cards: readonly C[], courierId: string, day: PayInputs): { total: number; rateCardId: string | null } {
  const card = cardInForce(cards, courierId, day.date);
  return card ? { total: priceWithCard(card, day), rateCardId: card.id } : { total: day.extra, rateCardId: null };
}
