import { describe, expect, it } from 'vitest';
import { detectDayOrder, impossibleDay, parseCount, parseDay, parseMoney, parseTime } from './import-cells';

describe('import cells', () => {
  it('reads dd/mm/yyyy and yyyy-mm-dd days, and refuses days that do not exist', () => {
    expect(parseDay('21/03/2025')).toBe('2025-03-21');
    expect(parseDay(' 1/3/2025 ')).toBe('2025-03-01');
    expect(parseDay('01.03.2025')).toBe('2025-03-01');
    expect(parseDay('2025-03-21')).toBe('2025-03-21');
    expect(parseDay('2025-3-1')).toBe('2025-03-01');
    for (const bad of ['31/02/2025', '2025-13-01', '21/03/25', 'yesterday', '', '2025/03/21']) expect(parseDay(bad)).toBeNull();
  });

  it('says why a well-written date names no real day, and leaves a wrong form to the form message', () => {
    expect(impossibleDay('31/11/2026')).toBe('November 2026 has 30 days');
    expect(impossibleDay('29/02/2027')).toBe('February 2027 has 28 days');
    expect(impossibleDay('30/02/2028')).toBe('February 2028 has 29 days');
    expect(impossibleDay('2026-11-31')).toBe('November 2026 has 30 days');
    expect(impossibleDay('00/03/2026')).toBe('a month has no day 0');
    expect(impossibleDay('11/31/2026', 'mdy')).toBe('November 2026 has 30 days');
    // A real day, a month over 12 (likelier the other reading) and a wrong form are not "impossible".
    for (const cell of ['30/11/2026', '13/13/2026', '31/11/26', 'yesterday', '']) expect(impossibleDay(cell)).toBeNull();
    expect(impossibleDay('31/01/2026', 'mdy')).toBeNull();
  });

  it('reads pounds as exact pence, with or without £ and thousands commas', () => {
    expect(parseMoney('£1,234.50')).toBe(123_450);
    expect(parseMoney('12.5')).toBe(1_250);
    expect(parseMoney(' 7 ')).toBe(700);
    expect(parseMoney('1.15')).toBe(115);
    for (const bad of ['-5', '1.234', 'abc', '', '1e3']) expect(parseMoney(bad)).toBeNull();
  });

  it('reads a year-last date month first when told to, and ISO days either way', () => {
    expect(parseDay('01/31/2026', 'mdy')).toBe('2026-01-31');
    expect(parseDay('03/04/2025', 'mdy')).toBe('2025-03-04');
    expect(parseDay('03/04/2025', 'dmy')).toBe('2025-04-03');
    expect(parseDay('2025-03-21', 'mdy')).toBe('2025-03-21');
    expect(parseDay('31/01/2026', 'mdy')).toBeNull();
  });

  it('reads a file month first only when its dates show it, and says when they do not', () => {
    expect(detectDayOrder(['31/01/2026', '01/02/2026'])).toEqual({ order: 'dmy', settled: true, yearLast: true });
    expect(detectDayOrder(['01/31/2026', '02/01/2026'])).toEqual({ order: 'mdy', settled: true, yearLast: true });
    // Every date fits both readings: the UK one, not settled, so the preview offers the other.
    expect(detectDayOrder(['01/02/2026', '03/04/2026', ''])).toEqual({ order: 'dmy', settled: false, yearLast: true });
    // Both kinds: day first, and the month-first ones become invalid rows rather than guesses.
    expect(detectDayOrder(['31/01/2026', '01/31/2026'])).toEqual({ order: 'dmy', settled: true, yearLast: true });
    expect(detectDayOrder(['2026-01-31', 'junk'])).toEqual({ order: 'dmy', settled: false, yearLast: false });
  });

  it('reads decimal-comma amounts for a ;-separated file, and never a decimal comma as thousands', () => {
    expect(parseMoney('12,50', true)).toBe(1_250);
    expect(parseMoney('£1.234,50', true)).toBe(123_450);
    expect(parseMoney('1.234.567,8', true)).toBe(123_456_780);
    expect(parseMoney('7', true)).toBe(700);
    // A decimal point still reads in such a file.
    expect(parseMoney('12.50', true)).toBe(1_250);
    for (const bad of ['1,234', '12,5,0', '-3,00', '12,505']) expect(parseMoney(bad, true)).toBeNull();
    // In an ordinary file a comma separates thousands only: "12,50" is not £1,250.
    expect(parseMoney('12,50')).toBeNull();
    expect(parseMoney('1,234,567.89')).toBe(123_456_789);
  });

  it('reads whole counts up to a bound and 24-hour times', () => {
    expect(parseCount('120', 1_000)).toBe(120);
    expect(parseCount('1001', 1_000)).toBeNull();
    expect(parseCount('2.5', 1_000)).toBeNull();
    expect(parseCount('-1', 1_000)).toBeNull();
    expect(parseTime('8:05')).toBe('08:05');
    expect(parseTime('23:59')).toBe('23:59');
    expect(parseTime('24:00')).toBeNull();
    expect(parseTime('8.30')).toBeNull();
  });
});
