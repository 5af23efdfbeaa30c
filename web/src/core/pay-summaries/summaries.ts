// Weekly and monthly totals of the driver's log, for the history page's summaries and chart.
// Days stay YYYY-MM-DD strings and weeks come from lib/week (Sunday start, calendar maths on
// UTC values), so clock changes and year ends never move an entry into another week or month.
// Callers pass live entries only: tombstones are filtered where entries are read.
import { formatMonthYear, formatShortDate } from '@/lib/format';
import { occurrences } from '@/core/deductions/deductions';
import { payFigures, type PayDay, type PayDeduction, type PayFigures } from './pay-summary';
import { addDays, weekStart } from '@/lib/week';

/** Only what the totals need from an entry (a LocalEntry fits). */
export type SummaryEntry = PayDay;

/** A period's money (gross, deductions, net, £/hour, £/stop), stops and days worked. */
export type PeriodTotals = PayFigures;

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

/** The days the summaries cover; deductions count only inside it. */
export interface ClosedRange {
  from: string;
  to: string;
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

/**
 * The periods (by key) that have a day or, within `range`, a deduction, each with its days.
 * A period charged but not worked (van hire in a week off) is listed too: its net is what it cost.
 */
function periodsOf(entries: readonly SummaryEntry[], deductions: readonly PayDeduction[], keyOf: (date: string) => string, range: ClosedRange | undefined) {
  const periods = new Map<string, SummaryEntry[]>();
  const add = (key: string) => {
    let days = periods.get(key);
    if (!days) periods.set(key, (days = []));
    return days;
  };
  for (const entry of entries) add(keyOf(entry.date)).push(entry);
  if (range) for (const deduction of deductions) for (const date of occurrences(deduction, range.from, range.to)) add(keyOf(date));
  // Keys are YYYY-MM-DD or YYYY-MM, which sort as dates when sorted as strings: newest first.
  return [...periods.keys()].sort().reverse().map((key) => ({ key, days: periods.get(key)! }));
}

/** A period's figures, its ends clipped to the range so a charge outside it never counts. */
function totalsOf(days: readonly SummaryEntry[], deductions: readonly PayDeduction[], start: string, end: string, range: ClosedRange | undefined): PeriodTotals {
  const from = range && range.from > start ? range.from : start;
  const to = range && range.to < end ? range.to : end;
  return payFigures(days, deductions, from, to);
}

/** Sunday-to-Saturday weeks, newest first. `range` (the days shown) bounds the deductions. */
export function weeklySummaries(entries: readonly SummaryEntry[], deductions: readonly PayDeduction[] = [], range?: ClosedRange): WeekSummary[] {
  return periodsOf(entries, deductions, weekStart, range).map(({ key, days }) => ({
    key,
    start: key,
    end: addDays(key, 6),
    label: `Week of ${formatShortDate(key)}`,
    ...totalsOf(days, deductions, key, addDays(key, 6), range),
  }));
}

const monthOf = (date: string) => date.slice(0, 7);

function lastDayOfMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

/** Calendar months, newest first. `range` (the days shown) bounds the deductions. */
export function monthlySummaries(entries: readonly SummaryEntry[], deductions: readonly PayDeduction[] = [], range?: ClosedRange): MonthSummary[] {
  return periodsOf(entries, deductions, monthOf, range).map(({ key, days }) => ({
    key,
    label: formatMonthYear(key),
    ...totalsOf(days, deductions, `${key}-01`, lastDayOfMonth(key), range),
  }));
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
