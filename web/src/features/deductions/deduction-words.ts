// A deduction's schedule in words: "Weekly from 03/03/2025", "Monthly from 15/03/2025 until
// 15/09/2025", "Once on 21/03/2025".
import { formatShortDate } from '@/lib/format';
import type { DeductionContent } from '@/sync/types';

export function scheduleWords({ repeat, from, to }: Pick<DeductionContent, 'repeat' | 'from' | 'to'>): string {
  if (repeat === 'once') return `Once on ${formatShortDate(from)}`;
  const start = `${repeat === 'weekly' ? 'Weekly' : 'Monthly'} from ${formatShortDate(from)}`;
  return to === null ? start : `${start} until ${formatShortDate(to)}`;
}
