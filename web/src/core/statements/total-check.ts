// The paid total of a statement check: what the driver's own log says a statement period should have
// paid, the difference, and the likeliest reason for it, worded for the screen. Computed from
// the entries every time rather than stored, so editing an entry updates the check.
// Callers pass live entries only: deleted ones are filtered where entries are read, as for
// every other total in the app.
import { formatPence, formatShortDate, listText } from '@/lib/format';
import { weekdayOf } from '@/lib/week';
import type { EntryContent, StatementCheckContent } from '@/sync/types';

/** What the comparison needs from a statement; a LocalStatementCheck fits. */
export type TotalStatement = Pick<StatementCheckContent, 'periodStart' | 'periodEnd' | 'paid' | 'stops'>;
export type TotalEntry = Pick<EntryContent, 'date' | 'stops' | 'total'>;

/** One logged day: entries on the same day added together. */
export interface DaySummary {
  date: string;
  stops: number;
  /** Pence. */
  total: number;
}

export type TotalExplanation =
  | { kind: 'match' }
  /** Underpaid by exactly these days' totals (and stops, when the statement gives them). */
  | { kind: 'missing-days'; days: DaySummary[]; alternatives: number }
  /** Same stops, different money: the rate paid differs by `perStop` pence (negative = less). */
  | { kind: 'rate'; perStop: number; stops: number }
  | { kind: 'overpaid' }
  | { kind: 'unexplained' };

export interface TotalCheck {
  /** Pence: the log's total for the period. */
  expected: number;
  expectedStops: number;
  daysLogged: number;
  /** Pence: paid - expected. Negative means underpaid. */
  difference: number;
  /** Statement stops - logged stops, or null when the statement gives no stops. */
  stopsDifference: number | null;
  /** Every logged day in the period, oldest first. */
  days: DaySummary[];
  explanation: TotalExplanation;
}

/** Beyond this many equally good answers the count stops: the UI only says there are several. */
export const MAX_ALTERNATIVES = 99;

/**
 * Sets of three days are searched only in periods with at most this many logged days. Sixty-two
 * covers any two calendar months, which is longer than the weekly, fortnightly and monthly
 * statements couriers send. Past it the search grows with the cube of the days (366 days would
 * be over eight million sets, on a phone, on every render), and with that many days some three
 * of them add up to almost any amount by coincidence, so naming them would mislead anyway.
 */
export const TRIPLE_SEARCH_MAX_DAYS = 62;

function daysInPeriod(statement: TotalStatement, entries: readonly TotalEntry[]): DaySummary[] {
  const byDate = new Map<string, DaySummary>();
  for (const { date, stops, total } of entries) {
    if (date < statement.periodStart || date > statement.periodEnd) continue;
    const day = byDate.get(date);
    if (day) {
      day.stops += stops;
      day.total += total;
    } else {
      byDate.set(date, { date, stops, total });
    }
  }
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}

/** Anything the search can add up: a logged day, or a deduction charge (with no stops). */
export interface Summable {
  /** Pence. */
  total: number;
  stops: number;
}

export interface Target {
  total: number;
  /** null when the statement gives no stops: then only money has to add up. */
  stops: number | null;
}

interface Found {
  /** Indexes into the days, ascending, of the earliest matching set. */
  indexes: number[];
  /** How many matching sets of that size there are, the first included. */
  count: number;
}

const matchKey = (target: Target, total: number, stops: number) => (target.stops === null ? `${total}` : `${total}/${stops}`);

function findSingle(days: readonly Summable[], target: Target): Found | null {
  const want = matchKey(target, target.total, target.stops ?? 0);
  const indexes = days.flatMap((day, i) => (matchKey(target, day.total, day.stops) === want ? [i] : []));
  return indexes.length > 0 ? { indexes: [indexes[0] as number], count: indexes.length } : null;
}

/**
 * Pairs in one pass: each day looks up the earlier days that make up the rest of the target.
 * Days are in date order, so the earliest pair is the one whose first day is earliest, and for
 * that first day the second found is the earliest too.
 */
function findPair(days: readonly Summable[], target: Target): Found | null {
  const earlier = new Map<string, { first: number; count: number }>();
  let best: [number, number] | null = null;
  let count = 0;
  for (const [j, day] of days.entries()) {
    const partner = earlier.get(matchKey(target, target.total - day.total, (target.stops ?? 0) - day.stops));
    if (partner) {
      count += partner.count;
      if (!best || partner.first < best[0]) best = [partner.first, j];
    }
    const key = matchKey(target, day.total, day.stops);
    const seen = earlier.get(key);
    if (seen) seen.count += 1;
    else earlier.set(key, { first: j, count: 1 });
  }
  return best ? { indexes: best, count } : null;
}

/** Every set of three in date order, so the first found is the earliest. Small periods only. */
function findTriple(days: readonly Summable[], target: Target): Found | null {
  if (days.length > TRIPLE_SEARCH_MAX_DAYS) return null;
  const sameStops = (stops: number) => target.stops === null || stops === target.stops;
  let first: number[] | null = null;
  let count = 0;
  for (let i = 0; i < days.length; i++) {
    const a = days[i] as Summable;
    for (let j = i + 1; j < days.length; j++) {
      const b = days[j] as Summable;
      for (let k = j + 1; k < days.length; k++) {
        const c = days[k] as Summable;
        if (a.total + b.total + c.total !== target.total || !sameStops(a.stops + b.stops + c.stops)) continue;
        first ??= [i, j, k];
        count += 1;
        if (count > MAX_ALTERNATIVES) return { indexes: first, count };
      }
    }
  }
  return first ? { indexes: first, count } : null;
}

/**
 * The smallest set of items (days in date order, or charges) whose totals (and stops) make up
 * the target exactly: the earliest such set, and how many other sets of that size fit too.
 */
export function smallestSet<T extends Summable>(items: readonly T[], target: Target): { items: T[]; alternatives: number } | null {
  for (const find of [findSingle, findPair, findTriple]) {
    const found = find(items, target);
    if (found) return { items: found.indexes.map((i) => ({ ...(items[i] as T) })), alternatives: Math.min(found.count - 1, MAX_ALTERNATIVES) };
  }
  return null;
}

/** The smallest set of logged days whose totals (and stops) make up the shortfall exactly. */
function findMissingDays(days: readonly DaySummary[], target: Target): TotalExplanation | null {
  const found = smallestSet(days, target);
  return found ? { kind: 'missing-days', days: found.items, alternatives: found.alternatives } : null;
}

/**
 * Integer division rounded half away from zero, in integers (Math.round would take -2.5 to -2).
 * Never -0, which would print as "-0" in a template.
 */
function divideRounded(numerator: number, denominator: number): number {
  const magnitude = Math.floor((2 * Math.abs(numerator) + denominator) / (2 * denominator));
  return numerator < 0 && magnitude > 0 ? -magnitude : magnitude;
}

function explain(difference: number, stopsDifference: number | null, expectedStops: number, days: readonly DaySummary[]): TotalExplanation {
  if (difference === 0 && (stopsDifference === null || stopsDifference === 0)) return { kind: 'match' };
  if (difference < 0) {
    const missing = findMissingDays(days, { total: -difference, stops: stopsDifference === null ? null : -stopsDifference });
    if (missing) return missing;
  }
  if (difference !== 0 && stopsDifference === 0 && expectedStops > 0) {
    return { kind: 'rate', perStop: divideRounded(difference, expectedStops), stops: expectedStops };
  }
  return difference > 0 ? { kind: 'overpaid' } : { kind: 'unexplained' };
}

export function checkTotal(statement: TotalStatement, entries: readonly TotalEntry[]): TotalCheck {
  const days = daysInPeriod(statement, entries);
  const expected = days.reduce((sum, day) => sum + day.total, 0);
  const expectedStops = days.reduce((sum, day) => sum + day.stops, 0);
  const difference = statement.paid - expected;
  const stopsDifference = statement.stops === null ? null : statement.stops - expectedStops;
  return {
    expected,
    expectedStops,
    daysLogged: days.length,
    difference,
    stopsDifference,
    days,
    explanation: explain(difference, stopsDifference, expectedStops, days),
  };
}

// --- Wording -------------------------------------------------------------------------------

const SHORT_WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const count = new Intl.NumberFormat('en-GB');

const stopsText = (stops: number) => `${count.format(stops)} ${Math.abs(stops) === 1 ? 'stop' : 'stops'}`;

/** "Tue 12/11/2024 (120 stops, £217.80)". */
export function dayText(day: DaySummary): string {
  return `${SHORT_WEEKDAYS[weekdayOf(day.date)]} ${formatShortDate(day.date)} (${stopsText(day.stops)}, ${formatPence(day.total)})`;
}


const SET_NAMES = {
  day: { 1: ['day', 'days'], 2: ['pair of days', 'pairs of days'], 3: ['set of three days', 'sets of three days'] },
  charge: { 1: ['charge', 'charges'], 2: ['pair of charges', 'pairs of charges'], 3: ['set of three charges', 'sets of three charges'] },
} as const;

/** " 1 other day matches too, so check which.", or nothing when the answer is the only one. */
export function alternativesText(alternatives: number, setSize: number, noun: keyof typeof SET_NAMES = 'day'): string {
  if (alternatives === 0) return '';
  const [one, many] = SET_NAMES[noun][setSize as 1 | 2 | 3];
  const howMany = alternatives >= MAX_ALTERNATIVES ? `At least ${MAX_ALTERNATIVES}` : String(alternatives);
  return alternatives === 1 ? ` 1 other ${one} matches too, so check which.` : ` ${howMany} other ${many} match too, so check which.`;
}

function stopsNote(stopsDifference: number | null, expectedStops: number): string {
  if (stopsDifference === null || stopsDifference === 0) return '';
  const statementStops = expectedStops + stopsDifference;
  const direction = stopsDifference < 0 ? 'fewer' : 'more';
  return ` It shows ${stopsText(Math.abs(stopsDifference))} ${direction} than your log (${count.format(statementStops)} against ${count.format(expectedStops)}).`;
}

/** The comparison in one or two sentences, as the statement check screen shows it. */
export function totalSentence(check: TotalCheck): string {
  const { explanation, difference, stopsDifference, expectedStops } = check;
  const amount = formatPence(Math.abs(difference));
  switch (explanation.kind) {
    case 'match':
      return 'Your statement matches your log.';
    case 'missing-days':
      return (
        `Your statement is ${amount} short. That matches ${listText(explanation.days.map(dayText))}, which may be missing from the statement.` +
        alternativesText(explanation.alternatives, explanation.days.length)
      );
    case 'rate': {
      const perStop = explanation.perStop === 0 ? 'under £0.01' : `about ${formatPence(Math.abs(explanation.perStop))}`;
      const opening = difference < 0 ? `Your statement is ${amount} short` : `You were paid ${amount} more`;
      return `${opening} for the same ${stopsText(explanation.stops)}: the rate paid is ${perStop} a stop ${difference < 0 ? 'lower' : 'higher'} than your log.`;
    }
    case 'overpaid':
      return `You were paid ${amount} more than your log says.`;
    case 'unexplained':
      if (difference === 0) return `Your statement's money matches your log, but its stops do not.${stopsNote(stopsDifference, expectedStops)}`;
      return `Your statement is ${amount} short, and no logged day or small set of days makes up the difference.${stopsNote(stopsDifference, expectedStops)}`;
  }
}
