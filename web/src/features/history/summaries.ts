// Weekly and monthly totals of the driver's log, for the history page's summaries and chart.
// Days stay YYYY-MM-DD strings and weeks come from lib/week (Sunday start, calendar maths on
// UTC values), so clock changes and year ends never move an entry into another week or month.
// Callers pass live entries only: tombstones are filtered where entries are read.
import { formatMonthYear, formatShortDate } from '@/lib/format';
import { addDays, weekStart } from '@/lib/week';
import type { EntryContent } from '@/sync/types';

/** Only what the totals need from an entry. */
export type SummaryEntry = Pick<EntryContent, 'date' | 'stops' | 'total'>;

export interface PeriodTotals {
  stops: number;
  /** Pence: the sum of the entries' totals. */
  earnings: number;
  /** Distinct days with at least one entry (two entries on one day are one day worked). */
  daysWorked: number;
}

export interface WeekSummary extends PeriodTotals {
  /** The week's Sunday, YYYY-MM-DD. */
  key: string;
  start: string;
  /** The week's Saturday. */
  end: string;
  /** "Week of 27/10/2024". */
  label: string;
}

export interface MonthSummary extends PeriodTotals {
  /** YYYY-MM. */
  key: string;
  /** "October 2024". */
  label: string;
}

export interface WeekPoint {
  weekStart: string;
  stops: number;
  earnings: number;
}

interface Bucket {
  stops: number;
  earnings: number;
  days: Set<string>;
}

/** One pass over the entries, adding each into the bucket its key names. */
function bucketBy(entries: readonly SummaryEntry[], keyOf: (date: string) => string): Map<string, Bucket> {
  const buckets = new Map<string, Bucket>();
  for (const { date, stops, total } of entries) {
    const key = keyOf(date);
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = { stops: 0, earnings: 0, days: new Set() };
      buckets.set(key, bucket);
    }
    bucket.stops += stops;
    bucket.earnings += total;
    bucket.days.add(date);
  }
  return buckets;
}

function totalsOf(bucket: Bucket): PeriodTotals {
  return { stops: bucket.stops, earnings: bucket.earnings, daysWorked: bucket.days.size };
}

/** Keys are YYYY-MM-DD or YYYY-MM, which sort as dates when sorted as strings. */
function newestFirst<T>(buckets: Map<string, Bucket>, toSummary: (key: string, bucket: Bucket) => T): T[] {
  return [...buckets.keys()].sort().reverse().map((key) => toSummary(key, buckets.get(key) as Bucket));
}

export function weeklySummaries(entries: readonly SummaryEntry[]): WeekSummary[] {
  return newestFirst(bucketBy(entries, weekStart), (key, bucket) => ({
    key,
    start: key,
    end: addDays(key, 6),
    label: `Week of ${formatShortDate(key)}`,
    ...totalsOf(bucket),
  }));
}

const monthOf = (date: string) => date.slice(0, 7);

export function monthlySummaries(entries: readonly SummaryEntry[]): MonthSummary[] {
  return newestFirst(bucketBy(entries, monthOf), (key, bucket) => ({ key, label: formatMonthYear(key), ...totalsOf(bucket) }));
}

/**
 * One point per Sunday-to-Saturday week, oldest first, with empty weeks as zeros so a chart's
 * x axis is even. Without `from`/`to` the series runs from the first entry's week to the last
 * one's; with them it runs from the week holding `from` to the week holding `to`, and only
 * entries dated from..to (inclusive days) count. One pass over the entries plus one step per
 * week: ten years is about 520 weeks, never a scan of the entries per week.
 */
export function weeklySeries(entries: readonly SummaryEntry[], from?: string, to?: string): WeekPoint[] {
  const inRange = entries.filter(({ date }) => (from === undefined || date >= from) && (to === undefined || date <= to));
  const buckets = bucketBy(inRange, weekStart);
  let first = from === undefined ? undefined : weekStart(from);
  let last = to === undefined ? undefined : weekStart(to);
  for (const week of buckets.keys()) {
    if (first === undefined || week < first) first = week;
    if (last === undefined || week > last) last = week;
  }
  // Only possible with no entries and an open end, or a range that ends before it starts.
  if (first === undefined || last === undefined || first > last) return [];
  const points: WeekPoint[] = [];
  for (let week = first; week <= last; week = addDays(week, 7)) {
    const bucket = buckets.get(week);
    points.push({ weekStart: week, stops: bucket?.stops ?? 0, earnings: bucket?.earnings ?? 0 });
  }
  return points;
}
