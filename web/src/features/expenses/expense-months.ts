// The expenses list by month, newest first, with what was spent in each month. A repeating
// expense (a phone contract, weekly van hire) is spent on each of its days up to today, so it
// shows, and counts, in every month it was paid in: the same days the tax year counts
// (core/deductions occurrences).
import { occurrences } from '@/core/deductions/deductions';
import type { ExpenseContent, LocalExpense } from '@/sync/types';

export interface ExpenseDay {
  expense: LocalExpense;
  /** The day this payment was made. */
  date: string;
  /** The expense's own day (its first payment), where its receipts show. */
  first: boolean;
}

export interface ExpenseMonth {
  /** YYYY-MM */
  month: string;
  /** Pence spent in the month. */
  total: number;
  days: ExpenseDay[];
}

/** The days an expense was paid on, up to `today` (its first day always, even if later). */
export function paymentDays(expense: Pick<ExpenseContent, 'date' | 'repeat' | 'repeatUntil'>, today: string): string[] {
  if (expense.repeat === 'once') return [expense.date];
  const last = today > expense.date ? today : expense.date;
  return occurrences({ repeat: expense.repeat, from: expense.date, to: expense.repeatUntil }, expense.date, last);
}

export function expenseMonths(expenses: readonly LocalExpense[], today: string): ExpenseMonth[] {
  const days: ExpenseDay[] = expenses.flatMap((expense) => paymentDays(expense, today).map((date) => ({ expense, date, first: date === expense.date })));
  days.sort((a, b) => (a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.expense.createdAt < b.expense.createdAt ? 1 : -1));
  const months: ExpenseMonth[] = [];
  for (const day of days) {
    const month = day.date.slice(0, 7);
    let group = months.at(-1);
    if (group?.month !== month) {
      group = { month, total: 0, days: [] };
      months.push(group);
    }
    group.total += day.expense.amount;
    group.days.push(day);
  }
  return months;
}
