// The pay periods of one courier that a driver may want to check a statement for: from the
// first day logged for it (or its first check) to the current period, newest first, each with
// what the log says and the checks made for it. Checks that fit none of the courier's periods
// (made before couriers existed, or before its pay period was changed) are kept aside, never
// dropped: nothing a driver typed disappears from the screen.
import { deductedBetween } from '@/core/deductions/deductions';
import { expectedPayDate, periodHolding, periodsBetween, type PayPeriod, type PeriodRule } from '@/core/pay-periods/pay-period';
import type { EntryContent, StatementCheckContent } from '@/sync/types';
import type { StatementDeduction } from './statement-check';

export interface PeriodLog {
  days: number;
  stops: number;
  /** Pence: the days' totals. */
  gross: number;
  /** Pence: the deduction charges in the period. */
  deductions: number;
  net: number;
}

export interface PeriodRow<C> {
  period: PayPeriod;
  /** When the period's pay should arrive. */
  payDate: string;
  /** The period holds today. */
  current: boolean;
  log: PeriodLog;
  /** The checks for exactly this period, latest made first. */
  checks: C[];
}

type Check = Pick<StatementCheckContent, 'periodStart' | 'periodEnd' | 'courierId'> & { createdAt: string };
type Entry = Pick<EntryContent, 'date' | 'courierId' | 'stops' | 'total'>;

export interface CourierPeriods<C> {
  rows: PeriodRow<C>[];
  /** This courier's checks that fit none of its periods, latest period first. */
  others: C[];
}

const key = (start: string, end: string) => `${start}/${end}`;

/** Checks, the latest made first: a period's first is the one that counts. */
function latestMadeFirst<C extends Pick<Check, 'createdAt'>>(checks: readonly C[]): C[] {
  return [...checks].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
}

/** The latest check made for each of a courier's periods, by the period it names (periodCheck reads it). */
export function latestChecks<C extends Check>(courierId: string, checks: readonly C[]): ReadonlyMap<string, C> {
  const latest = new Map<string, C>();
  for (const check of latestMadeFirst(checks.filter((c) => c.courierId === courierId))) {
    const named = key(check.periodStart, check.periodEnd);
    if (!latest.has(named)) latest.set(named, check);
  }
  return latest;
}

/** The latest check made for exactly this period, if any. */
export function periodCheck<C>(latest: ReadonlyMap<string, C>, period: PayPeriod): C | undefined {
  return latest.get(key(period.start, period.end));
}

export function courierPeriods<C extends Check>(
  courier: PeriodRule & { id: string },
  entries: readonly Entry[],
  checks: readonly C[],
  deductions: readonly StatementDeduction[],
  today: string,
): CourierPeriods<C> {
  const own = entries.filter((e) => e.courierId === courier.id);
  const ownChecks = checks.filter((c) => c.courierId === courier.id);
  const ownDeductions = deductions.filter((d) => d.courierId === courier.id);
  const dates = [...own.map((e) => e.date), ...ownChecks.map((c) => c.periodStart)];
  const first = dates.reduce((min, d) => (d < min ? d : min), today);
  const last = [...own.map((e) => e.date), today].reduce((max, d) => (d > max ? d : max));
  const periods = periodsBetween(courier, first, last);

  const byPeriod = new Map<string, C[]>(periods.map((p) => [key(p.start, p.end), []]));
  const others: C[] = [];
  for (const check of latestMadeFirst(ownChecks)) {
    const list = byPeriod.get(key(check.periodStart, check.periodEnd));
    if (list) list.push(check);
    else others.push(check);
  }
  others.sort((a, b) => (a.periodEnd === b.periodEnd ? 0 : a.periodEnd < b.periodEnd ? 1 : -1));

  const current = periodHolding(courier, today);
  const logged = loggedDays(own);
  const rows = periods.map((period): PeriodRow<C> => {
    const days = logged.between(period.start, period.end);
    const gross = days.reduce((sum, day) => sum + day.total, 0);
    const deducted = deductedBetween(ownDeductions, period.start, period.end);
    return {
      period,
      payDate: expectedPayDate(courier, period),
      current: period.start === current.start,
      log: { days: days.length, stops: days.reduce((sum, day) => sum + day.stops, 0), gross, deductions: deducted, net: gross - deducted },
      checks: byPeriod.get(key(period.start, period.end)) ?? [],
    };
  });
  return { rows: rows.reverse(), others };
}

/** One date's entries added up: its stops and totals. */
export interface LoggedDay {
  date: string;
  stops: number;
  total: number;
}

export interface LoggedDays {
  /** The dates from `from` to `to` (both included) with an entry, oldest first. */
  between(from: string, to: string): LoggedDay[];
}

/**
 * The entries' dates added up and sorted once, so each of a courier's periods finds its days by
 * a binary search: ten years hold 520 weekly periods and thousands of days, and filtering every
 * entry for every period took most of the tax year's time on a slow phone (issue 30).
 */
export function loggedDays(entries: readonly Pick<Entry, 'date' | 'stops' | 'total'>[]): LoggedDays {
  const byDate = new Map<string, LoggedDay>();
  for (const entry of entries) {
    const day = byDate.get(entry.date);
    if (day) {
      day.stops += entry.stops;
      day.total += entry.total;
    } else byDate.set(entry.date, { date: entry.date, stops: entry.stops, total: entry.total });
  }
  const days = [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  /** The index of the first day on or after `date`. */
  const firstFrom = (date: string) => {
    let low = 0;
    let high = days.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (days[middle]!.date < date) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  return {
    between: (from, to) => {
      const start = firstFrom(from);
      let end = start;
      while (end < days.length && days[end]!.date <= to) end += 1;
      return days.slice(start, end);
    },
  };
}
