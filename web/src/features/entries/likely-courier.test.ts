import { describe, expect, it } from 'vitest';
import { likelyCourierId } from './likely-courier';

const ME = 'user-1';
const couriers = [{ id: ME }, { id: 'evri' }, { id: 'amazon' }];
const day = (courierId: string, date: string, updatedAt = `${date}T18:00:00Z`) => ({ courierId, date, updatedAt });

describe('likelyCourierId', () => {
  // 2026-03-07 is a Saturday; 2026-03-09 a Monday.
  const weeks = [day(ME, '2026-02-23'), day('evri', '2026-02-28'), day(ME, '2026-03-02'), day('evri', '2026-03-07'), day(ME, '2026-03-09')];

  it('is the courier last used on the same weekday', () => {
    expect(likelyCourierId(weeks, couriers, ME, '2026-03-14')).toBe('evri');
    expect(likelyCourierId(weeks, couriers, ME, '2026-03-16')).toBe(ME);
  });

  it('takes the latest date on that weekday, not the latest saved', () => {
    // An old Saturday typed in late (saved last) does not beat last Saturday.
    const late = [...weeks, day('amazon', '2026-01-03', '2026-03-10T09:00:00Z')];
    expect(likelyCourierId(late, couriers, ME, '2026-03-14')).toBe('evri');
  });

  it('falls back to the last used courier on a weekday never worked', () => {
    // A Wednesday: nothing logged on one, so the last saved day's courier.
    expect(likelyCourierId(weeks, couriers, ME, '2026-03-11')).toBe(ME);
    expect(likelyCourierId([...weeks, day('amazon', '2026-03-10', '2026-03-10T20:00:00Z')], couriers, ME, '2026-03-11')).toBe('amazon');
  });

  it('skips deleted days and deleted couriers', () => {
    expect(likelyCourierId([...weeks, { ...day('amazon', '2026-03-07', '2026-03-08T00:00:00Z'), deleted: 1 as const }], couriers, ME, '2026-03-14')).toBe('evri');
    expect(likelyCourierId(weeks, [{ id: ME }], ME, '2026-03-14')).toBe(ME);
  });

  it('is the default courier for a new driver', () => {
    expect(likelyCourierId([], couriers, ME, '2026-03-14')).toBe(ME);
  });
});
