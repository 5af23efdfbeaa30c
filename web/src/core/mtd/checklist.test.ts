import { describe, expect, it } from 'vitest';
import { yearEndChecklist } from './checklist';

const checked = { done: 12, open: [] };
const all = (sent: boolean[]) => sent.map((s, i) => ({ number: i + 1, sent: s }));
const uncarried = (quarters: number[], lastSent: number) => ({ year: '2026-27' as const, quarters, lastSent, changes: [{ field: 'periodIncome.turnover', sent: 1, now: 2 }] });

describe('the year-end checklist', () => {
  it('is done when every quarter is sent, nothing changed since the last, vehicles settled and receipts kept', () => {
    expect(yearEndChecklist({ year: '2026-27', quarters: all([true, true, true, true]), uncarried: null, openVehicles: [], statementChecks: checked, expensesWithoutReceipts: 0 }).every((item) => item.done)).toBe(true);
  });

  it('lists what is missing', () => {
    const items = yearEndChecklist({ year: '2026-27', quarters: all([true, true, false, false]), uncarried: null, openVehicles: ['Van'], statementChecks: checked, expensesWithoutReceipts: 2 });
    expect(items.map((item) => [item.id, item.done, item.text])).toEqual([
      ['quarters', false, 'Not marked as sent: Q3, Q4'],
      // A Q1 change made before Q2 was sent went into Q2: nothing uncarried.
      ['changes', true, 'No changes since the last update sent'],
      ['vehicles', false, 'Method still to choose for good: Van (once a sent update or an earlier year’s return uses it, it stays with the vehicle)'],
      ['statements', true, 'Every pay period’s statement is checked (12 periods)'],
      ['receipts', false, '2 expenses have no receipt photo'],
    ]);
    expect(yearEndChecklist({ year: '2026-27', quarters: all([true, true, true, true]), uncarried: uncarried([4], 4), openVehicles: [], statementChecks: checked, expensesWithoutReceipts: 1 }).slice(1, 2)[0]).toMatchObject({ done: false, text: 'Changed since sent, not yet in a later update: Q4' });
    // Named by the quarters whose records changed, not the last one sent.
    expect(yearEndChecklist({ year: '2026-27', quarters: all([true, true, false, false]), uncarried: uncarried([1, 2], 2), openVehicles: [], statementChecks: checked, expensesWithoutReceipts: 0 })[1]).toEqual({
      id: 'changes',
      done: false,
      text: 'Changed since sent, not yet in a later update: Q1, Q2',
    });
  });

  const week = (start: string, end: string) => ({ start, end });
  it.each([
    ['no day logged', { done: 0, open: [] }, true, 'No pay period has a day logged', undefined],
    ['one period checked', { done: 1, open: [] }, true, 'Every pay period’s statement is checked (1 period)', undefined],
    [
      'periods missing, unresolved and not paid yet, named with the link',
      {
        done: 3,
        open: [
          { courierId: 'd', courierName: 'DPD', period: week('2025-05-04', '2025-05-10'), state: 'missing', finding: null },
          { courierId: 'd', courierName: 'DPD', period: week('2025-05-11', '2025-05-17'), state: 'unresolved', finding: '£20.00 short' },
          { courierId: 'e', courierName: 'Evri', period: week('2026-03-01', '2026-03-31'), state: 'notPaidYet', finding: null },
        ],
      },
      false,
      'Statement checks to do: DPD 04/05/2025 – 10/05/2025 (not checked), DPD 11/05/2025 – 17/05/2025 (£20.00 short), Evri 01/03/2026 – 31/03/2026 (not paid yet)',
      { label: 'Open statement checks', to: '/app/history?view=statements' },
    ],
    [
      'four named, then "and N more"',
      { done: 0, open: Array.from({ length: 6 }, (_, i) => ({ courierId: 'd', courierName: 'DPD', period: week(`2025-05-0${i + 1}`, `2025-05-0${i + 1}`), state: 'missing' as const, finding: null })) },
      false,
      'Statement checks to do: DPD 01/05/2025 – 01/05/2025 (not checked), DPD 02/05/2025 – 02/05/2025 (not checked), DPD 03/05/2025 – 03/05/2025 (not checked), DPD 04/05/2025 – 04/05/2025 (not checked) and 2 more',
      { label: 'Open statement checks', to: '/app/history?view=statements' },
    ],
  ] as const)('the statement checks of the year: %s', (_, statementChecks, done, text, link) => {
    const item = yearEndChecklist({ year: '2025-26', quarters: all([true, true, true, true]), uncarried: null, openVehicles: [], statementChecks, expensesWithoutReceipts: 0 }).find((i) => i.id === 'statements');
    expect(item).toEqual({ id: 'statements', done, text, ...(link ? { link } : {}) });
  });
});
