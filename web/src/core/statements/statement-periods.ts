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
  for (const check of [...ownChecks].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))) {
    const list = byPeriod.get(key(check.periodStart, check.periodEnd));
    if (list) list.push(check);
    else others.push(check);
  }
  others.sort((a, b) => (a.periodEnd === b.periodEnd ? 0 : a.periodEnd < b.periodEnd ? 1 : -1));

  const current = periodHolding(courier, today);
  const rows = periods.map((period): PeriodRow<C> => {
    const days = own.filter((e) => period.start <= e.date && e.date <= period.end);
    const gross = days.reduce((sum, e) => sum + e.total, 0);
    const deducted = deductedBetween(ownDeductions, period.start, period.end);
    return {
      period,
      payDate: expectedPayDate(courier, period),
      current: period.start === current.start,
      log: { days: new Set(days.map((e) => e.date)).size, stops: days.reduce((sum, e) => sum + e.stops, 0), gross, deductions: deducted, net: gross - deducted },
      checks: byPeriod.get(key(period.start, period.end)) ?? [],
    };
  });
  return { rows: rows.reverse(), others };
}
