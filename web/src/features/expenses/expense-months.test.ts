import { describe, expect, it } from 'vitest';
import type { ExpenseContent, LocalExpense } from '@/sync/types';
import { expenseMonths, paymentDays } from './expense-months';

let made = 0;
function expense(content: Partial<ExpenseContent>): LocalExpense {
  made += 1;
  const at = new Date(Date.UTC(2025, 0, 1, 0, 0, made)).toISOString();
  return {
    id: `e${made}`,
    date: '2025-05-02',
    amount: 1_000,
    category: 'fuel',
    note: '',
    courierId: null,
    vehicleId: null,
    repeat: 'once',
    repeatUntil: null,
    receipts: [],
    createdAt: at,
    updatedAt: at,
    deleted: 0,
    syncState: 'synced',
    server: null,
    ...content,
  };
}

describe('paymentDays', () => {
  it('is the day itself for a one-off, even in the future', () => {
    expect(paymentDays({ date: '2025-06-01', repeat: 'once', repeatUntil: null }, '2025-05-10')).toEqual(['2025-06-01']);
  });

  it('repeats up to today, or to the last payment', () => {
    expect(paymentDays({ date: '2025-03-31', repeat: 'monthly', repeatUntil: null }, '2025-06-15')).toEqual(['2025-03-31', '2025-04-30', '2025-05-31']);
    expect(paymentDays({ date: '2025-05-01', repeat: 'weekly', repeatUntil: '2025-05-10' }, '2025-06-15')).toEqual(['2025-05-01', '2025-05-08']);
    expect(paymentDays({ date: '2025-07-01', repeat: 'weekly', repeatUntil: null }, '2025-06-15')).toEqual(['2025-07-01']);
  });
});

describe('expenseMonths', () => {
  it('groups payments by month, newest first, with each month’s total', () => {
    const fuel = expense({ date: '2025-05-02', amount: 4_550 });
    const phone = expense({ date: '2025-04-10', amount: 2_500, category: 'phone', repeat: 'monthly' });
    const parking = expense({ date: '2025-05-02', amount: 300, category: 'parkingTolls' });
    const months = expenseMonths([fuel, phone, parking], '2025-05-20');
    expect(months.map((m) => [m.month, m.total])).toEqual([
      ['2025-05', 4_550 + 300 + 2_500],
      ['2025-04', 2_500],
    ]);
    expect(months[0]?.days.map((d) => [d.expense.id, d.date, d.first])).toEqual([
      [phone.id, '2025-05-10', false],
      [parking.id, '2025-05-02', true],
      [fuel.id, '2025-05-02', true],
    ]);
    expect(months[1]?.days.map((d) => [d.expense.id, d.first])).toEqual([[phone.id, true]]);
  });

  it('is empty with no expenses', () => {
    expect(expenseMonths([], '2025-05-20')).toEqual([]);
  });
});
