import { describe, expect, it } from 'vitest';
import { RECORD_KINDS } from '@/sync/records';
import { EXPENSE_CATEGORIES, expenseCategory, SA103_BOXES } from './expense-categories';

describe('expense categories', () => {
  it('covers exactly the categories the wire accepts, once each', () => {
    const ids = EXPENSE_CATEGORIES.map((category) => category.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(RECORD_KINDS.expense.content.shape.category.safeParse(id).success).toBe(true);
    expect(RECORD_KINDS.expense.content.shape.category.safeParse('entertainment').success).toBe(false);
  });

  it('lands every category in a box the SA103F has', () => {
    for (const category of EXPENSE_CATEGORIES) expect(SA103_BOXES[category.box]).toBeTruthy();
    expect(expenseCategory('parkingTolls')).toMatchObject({ box: 20, runningCost: false });
    expect(expenseCategory('fuel')).toMatchObject({ box: 20, runningCost: true });
  });
});
