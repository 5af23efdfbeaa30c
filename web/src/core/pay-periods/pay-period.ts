// A courier's pay periods: the days one statement covers. Weekly periods start on the anchor's
// weekday; 4-4-5 periods come in 91-day cycles aligned to the anchor, split 28, 28 and 35 days;
// monthly periods start on the anchor's day of month. Days are counted on a UTC calendar (as in
// lib/week.ts), so clock changes never move a day, and the anchor may lie before or after the
// dates asked about: periods run both ways from it.
import type { CourierContent } from '@/sync/types';
import { formatShortDate } from '@/lib/format';
import { addDays } from '@/lib/week';

/** How a courier's statements are cut (a CourierContent fits). */
export type PeriodRule = Pick<CourierContent, 'periodKind' | 'periodAnchor' | 'arrearsWeeks'>;

/** The days one statement covers, both inclusive (YYYY-MM-DD). */
export interface PayPeriod {
  start: string;
  end: string;
}

const DAY_MS = 86_400_000;
const CYCLE_DAYS = 91;
/** Where each 4-4-5 period starts within its cycle: 4 weeks, 4 weeks, then 5 weeks. */
const FOUR_FOUR_FIVE_STARTS = [0, 28, 56] as const;
/** Monthly anchors past the 28th would skip February; the server refuses them (contract). */
const LAST_MONTHLY_DAY = 28;

function dayNumber(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Math.round(Date.UTC(y, m - 1, d) / DAY_MS);
}

/** `n` modulo `m`, never negative: the anchor may come after the date. */
function mod(n: number, m: number): number {
  return ((n % m) + m) % m;
}

function ymd(year: number, month: number, day: number): string {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.toISOString().slice(0, 10);
}

function monthlyDay(rule: PeriodRule): number {
  return Math.min(Number(rule.periodAnchor.slice(8, 10)), LAST_MONTHLY_DAY);
}

/** The period that holds `date`. */
export function periodHolding(rule: PeriodRule, date: string): PayPeriod {
  const offset = dayNumber(date) - dayNumber(rule.periodAnchor);
  switch (rule.periodKind) {
    case 'weekly': {
      const start = addDays(date, -mod(offset, 7));
      return { start, end: addDays(start, 6) };
    }
    case 'fourFourFive': {
      const inCycle = mod(offset, CYCLE_DAYS);
      const cycleStart = addDays(date, -inCycle);
      const index = inCycle < 28 ? 0 : inCycle < 56 ? 1 : 2;
      const from = FOUR_FOUR_FIVE_STARTS[index];
      const to = index === 2 ? CYCLE_DAYS : FOUR_FOUR_FIVE_STARTS[index + 1];
      return { start: addDays(cycleStart, from), end: addDays(cycleStart, (to as number) - 1) };
    }
    case 'monthly': {
      const day = monthlyDay(rule);
      const [y, m, d] = date.split('-').map(Number) as [number, number, number];
      // Date.UTC rolls month 0 back to December of the year before.
      const startMonth = d >= day ? m : m - 1;
      return { start: ymd(y, startMonth, day), end: ymd(y, startMonth + 1, day - 1) };
    }
  }
}

/** The periods holding any day from `from` to `to` (inclusive), oldest first. */
export function periodsBetween(rule: PeriodRule, from: string, to: string): PayPeriod[] {
  const periods: PayPeriod[] = [];
  for (let period = periodHolding(rule, from); period.start <= to; period = periodHolding(rule, addDays(period.end, 1))) {
    periods.push(period);
  }
  return periods;
}

/** When the period's pay should arrive: its last day plus the courier's weeks in arrears. */
export function expectedPayDate(rule: PeriodRule, period: PayPeriod): string {
  return addDays(period.end, rule.arrearsWeeks * 7);
}

/** Days in the period, both ends counted. */
export function periodLength(period: PayPeriod): number {
  return dayNumber(period.end) - dayNumber(period.start) + 1;
}

/** "16/03/2025 – 22/03/2025": how the screens name a period. */
export function periodWords(period: PayPeriod): string {
  return `${formatShortDate(period.start)} – ${formatShortDate(period.end)}`;
}

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** "Weekly from Sunday, paid 2 weeks in arrears", "4-4-5 from 05/01/2025", "Monthly from the 15th". */
export function periodRuleWords(rule: PeriodRule): string {
  const cut =
    rule.periodKind === 'weekly'
      ? `Weekly from ${WEEKDAYS[new Date(dayNumber(rule.periodAnchor) * DAY_MS).getUTCDay()]}`
      : rule.periodKind === 'fourFourFive'
        ? `4-4-5 from ${formatShortDate(rule.periodAnchor)}`
        : `Monthly from the ${ordinal(monthlyDay(rule))}`;
  if (rule.arrearsWeeks === 0) return cut;
  return `${cut}, paid ${rule.arrearsWeeks} ${rule.arrearsWeeks === 1 ? 'week' : 'weeks'} in arrears`;
}
