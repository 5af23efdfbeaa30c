// Which days a rate card change re-prices, and by how much. Pure: the plan is shown to the
// driver (the card's start, each day that moves with its pay before and after, and the total)
// and nothing is written until they confirm (commands.ts), because a day's total is fixed when
// it is saved.
import { cardInForce, priceDay, type IdentifiedCard, type PayInputs } from './pay';
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
  /** The changed card's start (its validFrom): the offer names the rates by it, not by a day. */
  cardFrom: string;
  /** The first day re-priced, or null when there is none. */
  from: string | null;
  /** Pence the days' pay changes by in all: after − before, signed. */
  difference: number;
}

/**
 * The live days of `card`'s courier that the change touches, oldest first, each priced with the
 * card in force on its date (`cards` hold the changed card): the days `card` now governs, and
 * the days `card` priced that it no longer reaches (its date moved later), whenever their stored
 * total or card would change. Days of other couriers and days no change touched are never in it.
 */
export function repricePlan(entries: readonly PlannedEntry[], cards: readonly IdentifiedCard[], card: IdentifiedCard): RepricePlan {
  const days: RepriceDay[] = [];
  for (const entry of entries) {
    if (entry.deleted || entry.courierId !== card.courierId) continue;
    const governed = cardInForce(cards, card.courierId, entry.date)?.id === card.id;
    if (!governed && entry.rateCardId !== card.id) continue;
    const after = priceDay(cards, card.courierId, entry satisfies PayInputs);
    if (after.total === entry.total && after.rateCardId === entry.rateCardId) continue;
    days.push({ id: entry.id, date: entry.date, before: { total: entry.total, rateCardId: entry.rateCardId }, after });
  }
  days.sort((a, b) => (a.date === b.date ? a.id.localeCompare(b.id) : a.date < b.date ? -1 : 1));
  return { days, cardFrom: card.validFrom, from: days[0]?.date ?? null, difference: days.reduce((sum, day) => sum + day.after.total - day.before.total, 0) };
}
