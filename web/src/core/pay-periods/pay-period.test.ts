import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectedPayDate, ordinal, periodHolding, periodLength, periodRuleWords, periodsBetween, periodWords, type PeriodRule } from './pay-period';
import { addDays, weekdayOf } from '@/lib/week';

const weekly = (periodAnchor: string, arrearsWeeks = 0): PeriodRule => ({ periodKind: 'weekly', periodAnchor, arrearsWeeks });
const fourFourFive = (periodAnchor: string, arrearsWeeks = 0): PeriodRule => ({ periodKind: 'fourFourFive', periodAnchor, arrearsWeeks });
const monthly = (periodAnchor: string, arrearsWeeks = 0): PeriodRule => ({ periodKind: 'monthly', periodAnchor, arrearsWeeks });

describe('the period holding a day', () => {
  it('weekly: starts on the anchor’s weekday, whichever side of the day the anchor is', () => {
    expect(periodHolding(weekly('2000-01-02'), '2025-03-18')).toEqual({ start: '2025-03-16', end: '2025-03-22' }); // Sunday weeks
    expect(periodHolding(weekly('2030-06-05'), '2025-03-18')).toEqual({ start: '2025-03-12', end: '2025-03-18' }); // Wednesday weeks
    expect(periodHolding(weekly('2025-03-18'), '2025-03-18')).toEqual({ start: '2025-03-18', end: '2025-03-24' });
    expect(periodHolding(weekly('2000-01-02'), '2025-01-01')).toEqual({ start: '2024-12-29', end: '2025-01-04' });
  });

  it('4-4-5: 28, 28 and 35 days from the anchor, cycle after cycle, before and after it', () => {
    const rule = fourFourFive('2025-01-05');
    expect(periodHolding(rule, '2025-01-05')).toEqual({ start: '2025-01-05', end: '2025-02-01' });
    expect(periodHolding(rule, '2025-02-02')).toEqual({ start: '2025-02-02', end: '2025-03-01' });
    expect(periodHolding(rule, '2025-03-11')).toEqual({ start: '2025-03-02', end: '2025-04-05' });
    expect(periodHolding(rule, '2025-04-06')).toEqual({ start: '2025-04-06', end: '2025-05-03' }); // next cycle
    expect(periodHolding(rule, '2025-01-04')).toEqual({ start: '2024-12-01', end: '2025-01-04' }); // the 5-week period before
    expect(periodHolding(rule, '2024-10-06')).toEqual({ start: '2024-10-06', end: '2024-11-02' });
  });

  it('monthly: from the anchor’s day of month, across year ends and leap days', () => {
    expect(periodHolding(monthly('2020-05-15'), '2025-03-18')).toEqual({ start: '2025-03-15', end: '2025-04-14' });
    expect(periodHolding(monthly('2020-05-15'), '2025-03-14')).toEqual({ start: '2025-02-15', end: '2025-03-14' });
    expect(periodHolding(monthly('2020-05-15'), '2025-01-02')).toEqual({ start: '2024-12-15', end: '2025-01-14' });
    expect(periodHolding(monthly('2030-01-01'), '2024-02-29')).toEqual({ start: '2024-02-01', end: '2024-02-29' });
    expect(periodHolding(monthly('2020-05-28'), '2024-03-01')).toEqual({ start: '2024-02-28', end: '2024-03-27' });
    expect(periodHolding(monthly('2020-01-01'), '2024-12-31')).toEqual({ start: '2024-12-01', end: '2024-12-31' });
  });

  it('lists the periods between two days, oldest first, the first and last holding the ends', () => {
    expect(periodsBetween(fourFourFive('2025-01-05'), '2025-01-20', '2025-04-06')).toEqual([
      { start: '2025-01-05', end: '2025-02-01' },
      { start: '2025-02-02', end: '2025-03-01' },
      { start: '2025-03-02', end: '2025-04-05' },
      { start: '2025-04-06', end: '2025-05-03' },
    ]);
    expect(periodsBetween(weekly('2000-01-02'), '2025-03-18', '2025-03-18')).toEqual([{ start: '2025-03-16', end: '2025-03-22' }]);
  });

  it('expects the pay the arrears weeks after the period ends', () => {
    const period = { start: '2025-03-16', end: '2025-03-22' };
    expect(expectedPayDate(weekly('2000-01-02'), period)).toBe('2025-03-22');
    expect(expectedPayDate(weekly('2000-01-02', 2), period)).toBe('2025-04-05');
  });

  it('words periods and rules', () => {
    expect(periodWords({ start: '2025-03-16', end: '2025-03-22' })).toBe('16/03/2025 – 22/03/2025');
    expect(periodRuleWords(weekly('2000-01-02'))).toBe('Weekly from Sunday');
    expect(periodRuleWords(weekly('2025-03-19', 1))).toBe('Weekly from Wednesday, paid 1 week in arrears');
    expect(periodRuleWords(fourFourFive('2025-01-05', 4))).toBe('4-4-5 from 05/01/2025, paid 4 weeks in arrears');
    expect(periodRuleWords(monthly('2025-01-01'))).toBe('Monthly from the 1st');
    expect(periodRuleWords(monthly('2025-01-22'))).toBe('Monthly from the 22nd');
    expect(periodRuleWords(monthly('2025-01-13'))).toBe('Monthly from the 13th');
  });
});

// Properties, for anchors before and after the days, across year ends and leap days (fast-check
// prints the seed and the shrunk case of any failure, and `seed` reproduces it).
const SPAN_START = '2024-12-20';
const day = (from: string, days: number) => fc.integer({ min: 0, max: days }).map((n) => addDays(from, n));
const anchor = day('2018-01-01', 365 * 12); // 2018 to 2029: before and after the span
const rules = fc.oneof(
  anchor.map((a) => weekly(a)),
  anchor.map((a) => fourFourFive(a)),
  anchor.map((a) => monthly(`${a.slice(0, 8)}${String(1 + (Number(a.slice(8, 10)) % 28)).padStart(2, '0')}`)),
);

function expectedLengths(rule: PeriodRule, period: { start: string }): number[] {
  if (rule.periodKind === 'weekly') return [7];
  if (rule.periodKind === 'fourFourFive') return [28, 35];
  const [y, m] = period.start.split('-').map(Number) as [number, number];
  return [new Date(Date.UTC(y, m, 0)).getUTCDate()]; // a month from the start: the start month's length
}

describe('pay period properties', () => {
  it('tile the calendar: no gap, no overlap, every day in exactly one period', () => {
    fc.assert(
      // From late 2024 to early 2026 (the span 2024-12-20..2026-01-10): two year ends.
      fc.property(rules, day(SPAN_START, 30), day('2025-12-01', 40), (rule, from, to) => {
        const periods = periodsBetween(rule, from, to);
        expect(periods[0]!.start <= from && from <= periods[0]!.end).toBe(true);
        expect(periods.at(-1)!.start <= to && to <= periods.at(-1)!.end).toBe(true);
        for (const [i, period] of periods.entries()) {
          expect(period.start <= period.end).toBe(true);
          if (i > 0) expect(period.start).toBe(addDays(periods[i - 1]!.end, 1));
        }
        for (let d = from; d <= to; d = addDays(d, 1)) {
          const holding = periods.filter((p) => p.start <= d && d <= p.end);
          expect(holding).toHaveLength(1);
          expect(periodHolding(rule, d)).toEqual(holding[0]);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('are 7 days, 28-28-35 days in that order, or a month long', () => {
    fc.assert(
      fc.property(rules, day(SPAN_START, 386), (rule, date) => {
        const period = periodHolding(rule, date);
        expect(expectedLengths(rule, period)).toContain(periodLength(period));
        if (rule.periodKind === 'weekly') expect(weekdayOf(period.start)).toBe(weekdayOf(rule.periodAnchor));
        if (rule.periodKind === 'monthly') expect(period.start.slice(8, 10)).toBe(rule.periodAnchor.slice(8, 10));
        if (rule.periodKind === 'fourFourFive') {
          // The period's cycle starts a whole number of 91-day cycles from the anchor, and its
          // three periods are 28, 28 and 35 days, in that order.
          const cycleStart = [period.start, addDays(period.start, -28), addDays(period.start, -56)].find(
            (start) => (Date.parse(start) - Date.parse(rule.periodAnchor)) % (91 * 86_400_000) === 0,
          );
          expect(cycleStart).toBeDefined();
          expect(periodsBetween(rule, cycleStart!, addDays(cycleStart!, 90)).map(periodLength)).toEqual([28, 28, 35]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('holds the same period for every day inside it', () => {
    fc.assert(
      fc.property(rules, day(SPAN_START, 386), (rule, date) => {
        const period = periodHolding(rule, date);
        expect(periodHolding(rule, period.start)).toEqual(period);
        expect(periodHolding(rule, period.end)).toEqual(period);
        expect(periodHolding(rule, addDays(period.end, 1)).start).toBe(addDays(period.end, 1));
        expect(periodHolding(rule, addDays(period.start, -1)).end).toBe(addDays(period.start, -1));
      }),
      { numRuns: 300 },
    );
  });
});

describe('periodRuleWords for the courier list', () => {
  it('says the period and how far in arrears it is paid', () => {
    expect(periodRuleWords({ periodKind: 'weekly', periodAnchor: '2000-01-02', arrearsWeeks: 1 })).toBe('Weekly from Sunday, paid 1 week in arrears');
    expect(periodRuleWords({ periodKind: 'weekly', periodAnchor: '2025-03-05', arrearsWeeks: 0 })).toBe('Weekly from Wednesday');
    expect(periodRuleWords({ periodKind: 'fourFourFive', periodAnchor: '2025-01-05', arrearsWeeks: 0 })).toBe('4-4-5 from 05/01/2025');
    expect(periodRuleWords({ periodKind: 'monthly', periodAnchor: '2000-01-01', arrearsWeeks: 4 })).toBe('Monthly from the 1st, paid 4 weeks in arrears');
  });
});

describe('ordinal', () => {
  it('writes the days of a month as ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 28].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '28th']);
  });
});
