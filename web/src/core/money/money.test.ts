import { describe, expect, it } from 'vitest';
import { parsePounds, penceToPounds } from './money';

describe('parsePounds', () => {
  it.each([
    ['0', 0],
    ['12', 1200],
    ['12.5', 1250],
    ['12.50', 1250],
    ['12.', 1200],
    ['.5', 50],
    ['0.1', 10],
    ['0.30', 30],
    // Each of these drifts when multiplied as a float (1.15 * 100 = 114.999…).
    ['1.15', 115],
    ['4.35', 435],
    ['19.99', 1999],
    ['1234.56', 123456],
    [' 7.05 ', 705],
  ])('reads "%s" as %i pence', (input, pence) => {
    expect(parsePounds(input)).toBe(pence);
  });

  it.each(['', '.', '12.345', '0.001', '-1', '+1', '1e3', '1,000', '£5', 'abc', '1.2.3'])('refuses "%s"', (input) => {
    expect(parsePounds(input)).toBeNull();
  });
});

describe('penceToPounds', () => {
  it('writes pence as the plain pounds parsePounds reads back', () => {
    for (const pence of [0, 1, 10, 199, 1250, 1_234_567]) expect(parsePounds(penceToPounds(pence))).toBe(pence);
    expect(penceToPounds(1250)).toBe('12.50');
  });
});
