// Which days a rate card change re-prices, and by how much. Pure: the plan is shown to the
// driver ("Re-price 3 days from 02/09/2025? Their pay changes by −£1.95") and nothing is written
// until they confirm (commands.ts), because a day's total is fixed when it is saved.
import { cardInForce, priceWithCard, type IdentifiedCard, type PayInputs } from '@/lib/pay';
import type { EntryContent } from '@/sync/types';

/** A day as the plan reads it (a LocalEntry fits). */
export type PlannedEntry = EntryContent & { id: string; deleted: 0 | 1 };

export interface Priced {
  total: number;
  rateCardId: string | null;
}

export interface RepriceDay {
  id: string;
  date: string;
  before: Priced;
  after: Priced;
}

export interface RepricePlan {
  days: RepriceDay[];
  /** The first day re-priced, or null when there is none. */
  from: string | null;
  /** Pence the days' pay changes by in all: after − before, signed. */
  difference: number;
}

/**
 * The live days of `card`'s courier whose card in force is now `card` and whose stored total or
 * card would change if priced with it, oldest first. Days before the card's date, days of other
 * couriers and days another card of the courier governs are never in it.
 */
export function repricePlan(entries: readonly PlannedEntry[], cards: readonly IdentifiedCard[], card: IdentifiedCard): RepricePlan {
  const days: RepriceDay[] = [];
  for (const entry of entries) {
    if (entry.deleted || entry.courierId !== card.courierId) continue;
    if (cardInForce(cards, card.courierId, entry.date)?.id !== card.id) continue;
    const total = priceWithCard(card, entry satisfies PayInputs);
    if (total === entry.total && entry.rateCardId === card.id) continue;
    days.push({ id: entry.id, date: entry.date, before: { total: entry.total, rateCardId: entry.rateCardId }, after: { total, rateCardId: card.id } });
  }
  days.sort((a, b) => (a.date === b.date ? a.id.localeCompare(b.id) : a.date < b.date ? -1 : 1));
  return { days, from: days[0]?.date ?? null, difference: days.reduce((sum, day) => sum + day.after.total - day.before.total, 0) };
}
