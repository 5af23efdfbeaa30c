// When a deduction is charged. A weekly one falls every 7 days from its first charge, a monthly
// one on the first charge's day of month (the month's last day when the month is shorter), a
// one-off on its day. Net pay over any range is the days' totals less the charges inside it.
import type { DeductionContent } from '@/sync/types';
import { addDays } from '@/lib/week';

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function monthDay(year: number, month: number, day: number): string {
  const clamped = Math.min(day, daysInMonth(year, month));
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(clamped).padStart(2, '0')}`;
}

/** The dates (YYYY-MM-DD, oldest first) on which `deduction` is charged between `from` and `to` inclusive. */
export function occurrences(deduction: Pick<DeductionContent, 'repeat' | 'from' | 'to'>, from: string, to: string): string[] {
  const last = deduction.to !== null && deduction.to < to ? deduction.to : to;
  if (deduction.repeat === 'once') return from <= deduction.from && deduction.from <= to ? [deduction.from] : [];
  const dates: string[] = [];
  if (deduction.repeat === 'weekly') {
    // Jump to the first charge on or after `from` rather than walking years of weeks.
    const [fy, fm, fd] = deduction.from.split('-').map(Number) as [number, number, number];
    const [ry, rm, rd] = from.split('-').map(Number) as [number, number, number];
    const gap = Math.round((Date.UTC(ry, rm - 1, rd) - Date.UTC(fy, fm - 1, fd)) / 86_400_000);
    let date = gap > 0 ? addDays(deduction.from, Math.ceil(gap / 7) * 7) : deduction.from;
    for (; date <= last; date = addDays(date, 7)) dates.push(date);
    return dates;
  }
  const [year, month, day] = deduction.from.split('-').map(Number) as [number, number, number];
  const [fromYear, fromMonth] = from.split('-').map(Number) as [number, number];
  // Start at the later of the first charge's month and the range's first month.
  let index = Math.max(year * 12 + month - 1, fromYear * 12 + fromMonth - 1);
  for (;;) {
    const date = monthDay(Math.floor(index / 12), (index % 12) + 1, day);
    if (date > last) return dates;
    if (date >= from && date >= deduction.from) dates.push(date);
    index += 1;
  }
}

/** Pence charged by `deductions` between `from` and `to` inclusive. */
export function deductedBetween(deductions: readonly Pick<DeductionContent, 'repeat' | 'from' | 'to' | 'amount'>[], from: string, to: string): number {
  return deductions.reduce((sum, d) => sum + d.amount * occurrences(d, from, to).length, 0);
}
