// A courier's pay period in words: "Weekly from Sunday, paid 1 week in arrears",
// "4-4-5 from 05/01/2025", "Monthly from the 1st".
import { formatShortDate } from '@/lib/format';
import { weekdayOf } from '@/lib/week';
import type { CourierContent } from '@/sync/types';

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st, 22nd, 23rd … 28th. */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

export function periodWords(courier: Pick<CourierContent, 'periodKind' | 'periodAnchor' | 'arrearsWeeks'>): string {
  const { periodKind, periodAnchor, arrearsWeeks } = courier;
  const period =
    periodKind === 'weekly'
      ? `Weekly from ${WEEKDAYS[weekdayOf(periodAnchor)]}`
      : periodKind === 'fourFourFive'
        ? `4-4-5 from ${formatShortDate(periodAnchor)}`
        : `Monthly from the ${ordinal(Number(periodAnchor.slice(8, 10)))}`;
  if (arrearsWeeks === 0) return period;
  return `${period}, paid ${arrearsWeeks} ${arrearsWeeks === 1 ? 'week' : 'weeks'} in arrears`;
}
