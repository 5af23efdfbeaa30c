import { describe, expect, it } from 'vitest';
import { yearEndChecklist } from './checklist';

const all = (sent: boolean[], changed: boolean[] = [false, false, false, false]) => sent.map((s, i) => ({ number: i + 1, sent: s, changedSinceSent: changed[i]! }));

describe('the year-end checklist', () => {
  it('is done when every quarter is sent, nothing changed since the last, vehicles settled and receipts kept', () => {
    expect(yearEndChecklist({ year: '2026-27', quarters: all([true, true, true, true]), openVehicles: [], expensesWithoutReceipts: 0 }).every((item) => item.done)).toBe(true);
  });

  it('lists what is missing', () => {
    const items = yearEndChecklist({ year: '2026-27', quarters: all([true, true, false, false], [true, false, false, false]), openVehicles: ['Van'], expensesWithoutReceipts: 2 });
    expect(items.map((item) => [item.id, item.done, item.text])).toEqual([
      ['quarters', false, 'Not marked as sent: Q3, Q4'],
      // Q1's change went into Q2, sent after it.
      ['changes', true, 'No changes since the last update sent'],
      ['vehicles', false, 'Method still to choose for good: Van (once a return uses it, it stays with the vehicle)'],
      ['receipts', false, '2 expenses have no receipt photo'],
    ]);
    expect(yearEndChecklist({ year: '2026-27', quarters: all([true, true, true, true], [false, false, false, true]), openVehicles: [], expensesWithoutReceipts: 1 }).slice(1, 2)[0]).toMatchObject({ done: false, text: 'Changed since sent, not yet in a later update: Q4' });
  });
});
