import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deductedBetween, occurrences } from './deductions';
import { addDays } from '@/lib/week';

describe('occurrences', () => {
  it('charges a one-off on its day only', () => {
    const once = { repeat: 'once', from: '2025-03-12', to: null } as const;
    expect(occurrences(once, '2025-03-09', '2025-03-15')).toEqual(['2025-03-12']);
    expect(occurrences(once, '2025-03-13', '2025-03-31')).toEqual([]);
  });

  it('charges weekly van hire every 7 days from the first charge until the end date', () => {
    const van = { repeat: 'weekly', from: '2025-03-03', to: '2025-03-24' } as const;
    expect(occurrences(van, '2025-01-01', '2025-12-31')).toEqual(['2025-03-03', '2025-03-10', '2025-03-17', '2025-03-24']);
    expect(occurrences(van, '2025-03-11', '2025-03-17')).toEqual(['2025-03-17']);
    expect(occurrences({ ...van, to: null }, '2026-12-27', '2027-01-02')).toEqual(['2026-12-28']);
  });

  it('charges monthly on the same day, the last day of a shorter month', () => {
    const rent = { repeat: 'monthly', from: '2024-01-31', to: null } as const;
    expect(occurrences(rent, '2024-01-01', '2024-05-31')).toEqual(['2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30', '2024-05-31']);
    expect(occurrences(rent, '2024-12-01', '2025-02-28')).toEqual(['2024-12-31', '2025-01-31', '2025-02-28']);
    expect(occurrences({ ...rent, to: '2024-03-30' }, '2024-01-01', '2024-12-31')).toEqual(['2024-01-31', '2024-02-29']);
  });

  it('adds up what a range is charged', () => {
    const list = [
      { repeat: 'weekly', from: '2025-03-03', to: null, amount: 19_500 },
      { repeat: 'once', from: '2025-03-05', to: null, amount: 2_500 },
    ] as const;
    expect(deductedBetween(list, '2025-03-02', '2025-03-15')).toBe(2 * 19_500 + 2_500);
  });

  it('weekly charges fall in every week of any range, exactly once, 7 days apart', () => {
    const day = fc.integer({ min: 0, max: 3_000 }).map((n) => addDays('2020-01-01', n));
    fc.assert(
      fc.property(day, day, fc.integer({ min: 0, max: 400 }), (first, start, length) => {
        const end = addDays(start, length);
        const dates = occurrences({ repeat: 'weekly', from: first, to: null }, start, end);
        // A brute-force walk from the first charge finds the same dates.
        const walked: string[] = [];
        for (let d = first; d <= end; d = addDays(d, 7)) if (d >= start) walked.push(d);
        expect(dates).toEqual(walked);
      }),
    );
  });
});
