// An expense in words: its repeat ("Every month from 10/04/2025 until 10/12/2025") and its
// category's label.
import { formatShortDate } from '@/lib/format';
import { expenseCategory } from '@/core/tax/expense-categories';
import type { ExpenseContent } from '@/sync/types';

/** Null for a one-off: its date already says everything. */
export function repeatWords({ repeat, date, repeatUntil }: Pick<ExpenseContent, 'repeat' | 'date' | 'repeatUntil'>): string | null {
  if (repeat === 'once') return null;
  const start = `${repeat === 'weekly' ? 'Every week' : 'Every month'} from ${formatShortDate(date)}`;
  return repeatUntil === null ? start : `${start} until ${formatShortDate(repeatUntil)}`;
}

export function categoryLabel(expense: Pick<ExpenseContent, 'category'>): string {
  return expenseCategory(expense.category).label;
}
