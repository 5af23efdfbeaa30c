import { afterEach, describe, expect, it, vi } from 'vitest';
import { countWords, formatCount, formatMinutes, formatMonthYear, formatPence, formatShortDate, formatTime } from './format';

afterEach(() => vi.unstubAllEnvs());

describe('format', () => {
  it('shows integer pence as pounds', () => {
    expect(formatPence(0)).toBe('£0.00');
    expect(formatPence(19800)).toBe('£198.00');
    expect(formatPence(499)).toBe('£4.99');
    expect(formatPence(-200)).toBe('−£2.00');
    expect(formatPence(-0)).toBe('£0.00');
    expect(formatPence(123456)).toBe('£1,234.56');
    expect(formatPence(5)).toBe('£0.05');
  });

  it('groups counts the British way, with and without their noun', () => {
    expect(formatCount(3650)).toBe('3,650');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1_000_000)).toBe('1,000,000');
    expect(countWords(1, 'day')).toBe('1 day');
    expect(countWords(9300, 'business mile')).toBe('9,300 business miles');
  });

  it('shows a clock time in en-GB 24-hour form', () => {
    expect(formatTime(new Date(2025, 2, 21, 14, 5).getTime())).toBe('14:05');
    expect(formatTime(new Date(2025, 2, 21, 9, 0).getTime())).toBe('09:00');
  });

  it('shows a calendar day in en-GB short form without shifting it', () => {
    expect(formatShortDate('2025-03-21')).toBe('21/03/2025');
    expect(formatShortDate('2025-01-01')).toBe('01/01/2025');
  });

  it('keeps a calendar day when the device changes time zone after start', () => {
    // The formatters were built in the zone the tests started in; far east of it, local
    // midnight is the previous day there.
    vi.stubEnv('TZ', 'Pacific/Auckland');
    expect(formatShortDate('2024-10-27')).toBe('27/10/2024');
    expect(formatMonthYear('2024-10')).toBe('October 2024');
    vi.stubEnv('TZ', 'America/Los_Angeles');
    expect(formatShortDate('2025-03-30')).toBe('30/03/2025');
    expect(formatMonthYear('2025-01')).toBe('January 2025');
  });

  it('names a month with its year', () => {
    expect(formatMonthYear('2024-10')).toBe('October 2024');
    expect(formatMonthYear('2024-12')).toBe('December 2024');
    expect(formatMonthYear('2025-01-31')).toBe('January 2025');
  });

  it('shows minutes worked as hours and minutes', () => {
    expect(formatMinutes(0)).toBe('0m');
    expect(formatMinutes(45)).toBe('45m');
    expect(formatMinutes(480)).toBe('8h');
    expect(formatMinutes(450)).toBe('7h 30m');
    expect(formatMinutes(1439)).toBe('23h 59m');
  });
});
