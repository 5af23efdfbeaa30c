import { afterEach, describe, expect, it, vi } from 'vitest';
import { addDays, localDay, weekDays, weekStart, weekdayOf } from './week';

afterEach(() => vi.unstubAllEnvs());

describe('week maths', () => {
  it('starts the week on Sunday (same cases as the server)', () => {
    expect(weekStart('2025-03-23')).toBe('2025-03-23'); // Sunday
    expect(weekStart('2025-03-22')).toBe('2025-03-16'); // Saturday
    expect(weekStart('2025-01-01')).toBe('2024-12-29'); // across a year end
    expect(weekStart('2025-03-03')).toBe('2025-03-02'); // across a month end
    expect(weekStart('2024-03-01')).toBe('2024-02-25'); // leap year
  });

  it('lists Sunday to Saturday', () => {
    expect(weekDays('2024-12-31')).toEqual([
      '2024-12-29', '2024-12-30', '2024-12-31', '2025-01-01', '2025-01-02', '2025-01-03', '2025-01-04',
    ]);
    expect(weekDays('2024-12-31').map(weekdayOf)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('adds whole days across the BST changes', () => {
    expect(addDays('2025-03-29', 1)).toBe('2025-03-30'); // clocks go forward on the 30th
    expect(addDays('2025-03-30', 1)).toBe('2025-03-31');
    expect(addDays('2025-10-26', -1)).toBe('2025-10-25'); // clocks go back on the 26th
    expect(weekStart('2025-04-05')).toBe('2025-03-30');
  });

  it('takes the local calendar day, not the UTC one', () => {
    vi.stubEnv('TZ', 'Europe/London');
    // 00:30 BST on 31 March is still 30 March in UTC.
    expect(new Date(2025, 2, 31, 0, 30).toISOString().slice(0, 10)).toBe('2025-03-30');
    expect(localDay(new Date(2025, 2, 31, 0, 30))).toBe('2025-03-31');
    expect(localDay(new Date(2025, 0, 1, 23, 59))).toBe('2025-01-01');
    expect(localDay(new Date(999, 0, 5))).toBe('0999-01-05');
  });
});
