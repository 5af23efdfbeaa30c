// A logged day in words, for the cards, the same-day notice and the doubles' choice.
import { countWords, formatMinutes } from '@/lib/format';
import { priceWithCard, workedMinutes, type IdentifiedCard } from '@/core/pay/pay';
import type { EntryContent } from '@/sync/types';
import { capNote } from '@/core/pay/day-pricing';

const count = new Intl.NumberFormat('en-GB');

/** The work a day counted: "128 stops", "140 parcels", both, or none (a day rate). */
export function dayCounts(entry: Pick<EntryContent, 'stops' | 'parcels'>): string[] {
  const counts: string[] = [];
  if (entry.stops > 0) counts.push(countWords(entry.stops, 'stop'));
  if (entry.parcels !== null && entry.parcels > 0) counts.push(countWords(entry.parcels, 'parcel'));
  return counts;
}

/** The optional counts of a day, for the line under its figures: times, parcels, collections, failed items. */
export function dayDetails(entry: EntryContent, shownParcels: boolean): string[] {
  const details: string[] = [];
  const minutes = workedMinutes(entry.startTime, entry.finishTime);
  if (minutes !== null) details.push(`${entry.startTime}–${entry.finishTime} (${formatMinutes(minutes)})`);
  if (entry.parcels !== null && !shownParcels) details.push(countWords(entry.parcels, 'parcel'));
  if (entry.collections !== null) details.push(countWords(entry.collections, 'collection'));
  if (entry.failed !== null) details.push(`${count.format(entry.failed)} failed/returned`);
  return details;
}

/**
 * Why a saved day was paid for fewer parcels than it delivered, when the card that priced it
 * capped them; null otherwise. Only while that card still prices the day to its saved total:
 * a card edited since (and not re-priced) no longer says what the day was paid.
 */
export function savedCapNote(entry: EntryContent, cards: readonly IdentifiedCard[] | undefined): string | null {
  const card = entry.rateCardId === null ? undefined : cards?.find((c) => c.id === entry.rateCardId);
  if (!card || priceWithCard(card, entry) !== entry.total) return null;
  return capNote(card, entry);
}
