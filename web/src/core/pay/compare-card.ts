// "What would this period have paid under another card" (issue 28): the logged days of a
// courier in a period, re-priced under one card (saved or only being considered) and set beside
// what each day paid. Pure and React-free; nothing is written: a day's total stays fixed until
// the driver asks for a re-price (reprice-plan.ts). Prices come from the one pricing
// rule, priceWithCard in pay.ts.
import { priceWithCard, roundedShare, workedMinutes, type PayInputs } from './pay';
import type { EntryContent, RateCardContent } from '@/sync/types';

/** A logged day as the comparison reads it (a LocalEntry fits). */
export type ComparedEntry = EntryContent & { id: string; deleted: 0 | 1 };

export interface ComparedDay {
  id: string;
  date: string;
  /** What the day paid: its saved total. */
  paid: number;
  /** What the card would have paid for the same work. */
  wouldPay: number;
  /** wouldPay − paid, signed pence. */
  difference: number;
  /** Minutes worked, or null when the day has no start and finish. */
  minutes: number | null;
}

export interface CardComparison {
  days: ComparedDay[];
  paid: number;
  wouldPay: number;
  /** The sum of the days' differences. */
  difference: number;
  /** Minutes of the days with times: the hours behind £ per hour. */
  minutes: number;
  /** Pence per hour over the days with times, before and after; null with no timed day. */
  perHourPaid: number | null;
  perHourWouldPay: number | null;
}

/**
 * The live days of `courierId` from `from` to `to` (inclusive, YYYY-MM-DD), oldest first, each
 * priced under `card` and beside its saved total. £ per hour counts only the days with times,
 * so a day without them neither pads nor dilutes the rate.
 */
export function compareCard(entries: readonly ComparedEntry[], courierId: string, from: string, to: string, card: RateCardContent): CardComparison {
  const days: ComparedDay[] = entries
    .filter((entry) => !entry.deleted && entry.courierId === courierId && from <= entry.date && entry.date <= to)
    .map((entry) => {
      const wouldPay = priceWithCard(card, entry satisfies PayInputs);
      return { id: entry.id, date: entry.date, paid: entry.total, wouldPay, difference: wouldPay - entry.total, minutes: workedMinutes(entry.startTime, entry.finishTime) };
    })
    .sort((a, b) => (a.date === b.date ? a.id.localeCompare(b.id) : a.date < b.date ? -1 : 1));
  const sum = (pick: (day: ComparedDay) => number, only: readonly ComparedDay[] = days) => only.reduce((total, day) => total + pick(day), 0);
  const timed = days.filter((day) => day.minutes !== null && day.minutes > 0);
  const minutes = sum((day) => day.minutes ?? 0, timed);
  const perHour = (pence: number) => (minutes === 0 ? null : roundedShare(pence, 60, minutes));
  return {
    days,
    paid: sum((day) => day.paid),
    wouldPay: sum((day) => day.wouldPay),
    difference: sum((day) => day.difference),
    minutes,
    perHourPaid: perHour(sum((day) => day.paid, timed)),
    perHourWouldPay: perHour(sum((day) => day.wouldPay, timed)),
  };
}

/**
 * A card being considered: `base` with every per-stop rate moved by `perStopChange` pence (the
 * "65p cut" is −65), never below zero. The driver edits the other rates directly.
 */
export function withPerStopChange(base: RateCardContent, perStopChange: number): RateCardContent {
  if (base.perStop === null || perStopChange === 0) return base;
  return { ...base, perStop: base.perStop.map((tier) => ({ ...tier, rate: Math.max(0, tier.rate + perStopChange) })) };
}
