import { describe, expect, it } from 'vitest';
import { parseCount, parseDay, parseMoney, parseTime } from './import-cells';

describe('import cells', () => {
  it('reads dd/mm/yyyy and yyyy-mm-dd days, and refuses days that do not exist', () => {
    expect(parseDay('21/03/2025')).toBe('2025-03-21');
    expect(parseDay(' 1/3/2025 ')).toBe('2025-03-01');
    expect(parseDay('01.03.2025')).toBe('2025-03-01');
    expect(parseDay('2025-03-21')).toBe('2025-03-21');
    expect(parseDay('2025-3-1')).toBe('2025-03-01');
    for (const bad of ['31/02/2025', '2025-13-01', '21/03/25', 'yesterday', '', '2025/03/21']) expect(parseDay(bad)).toBeNull();
  });

  it('reads pounds as exact pence, with or without £ and thousands commas', () => {
    expect(parseMoney('£1,234.50')).toBe(123_450);
    expect(parseMoney('12.5')).toBe(1_250);
    expect(parseMoney(' 7 ')).toBe(700);
    expect(parseMoney('1.15')).toBe(115);
    for (const bad of ['-5', '1.234', 'abc', '', '1e3']) expect(parseMoney(bad)).toBeNull();
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
