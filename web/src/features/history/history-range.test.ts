import { describe, expect, it } from 'vitest';
import { closedRange, inRange, presetOf, presetRange, rangeFromParams, rangeProblem } from './history-range';

describe('history range', () => {
  it('reads days from the URL and ignores anything else', () => {
    expect(rangeFromParams(new URLSearchParams('from=2025-01-01&to=2025-03-31'))).toEqual({ from: '2025-01-01', to: '2025-03-31' });
    expect(rangeFromParams(new URLSearchParams('from=yesterday&to='))).toEqual({ from: '', to: '' });
  });

  it('includes both ends and treats empty ends as open', () => {
    const range = { from: '2025-01-01', to: '2025-01-31' };
    expect(inRange('2025-01-01', range)).toBe(true);
    expect(inRange('2025-01-31', range)).toBe(true);
    expect(inRange('2024-12-31', range)).toBe(false);
    expect(inRange('2025-02-01', range)).toBe(false);
    expect(inRange('1999-01-01', { from: '', to: '2025-01-01' })).toBe(true);
    expect(inRange('2099-01-01', { from: '2025-01-01', to: '' })).toBe(true);
  });

  it('refuses a start after the end', () => {
    expect(rangeProblem({ from: '2025-02-01', to: '2025-01-01' })).toMatch(/on or before/);
    expect(rangeProblem({ from: '2025-01-01', to: '2025-01-01' })).toBeNull();
    expect(rangeProblem({ from: '2025-02-01', to: '' })).toBeNull();
  });

  it('works presets out from today, across a year end', () => {
    expect(presetRange('this-week', '2025-01-02')).toEqual({ from: '2024-12-29', to: '2025-01-04' });
    expect(presetRange('this-month', '2025-01-02')).toEqual({ from: '2025-01-01', to: '2025-01-02' });
    expect(presetRange('last-3-months', '2025-01-15')).toEqual({ from: '2024-11-01', to: '2025-01-15' });
    expect(presetRange('this-year', '2025-06-30')).toEqual({ from: '2025-01-01', to: '2025-06-30' });
    expect(presetOf({ from: '', to: '' }, '2025-06-30')).toBe('all');
    expect(presetOf({ from: '2025-01-01', to: '2025-06-30' }, '2025-06-30')).toBe('this-year');
    expect(presetOf({ from: '2025-01-02', to: '2025-06-30' }, '2025-06-30')).toBeNull();
  });

  it('closes open ends on the data, or today', () => {
    const days = ['2025-03-01', '2025-01-05', '2025-02-10'];
    expect(closedRange({ from: '', to: '' }, days, '2025-06-30')).toEqual({ from: '2025-01-05', to: '2025-03-01' });
    expect(closedRange({ from: '2025-02-01', to: '' }, days, '2025-06-30')).toEqual({ from: '2025-02-01', to: '2025-03-01' });
    expect(closedRange({ from: '', to: '' }, [], '2025-06-30')).toEqual({ from: '2025-06-30', to: '2025-06-30' });
  });
});
