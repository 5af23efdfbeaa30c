import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '@/lib/week';
import { courierPeriods, loggedDays } from './statement-periods';

const courier = { id: 'c1', periodKind: 'fourFourFive', periodAnchor: '2025-01-05', arrearsWeeks: 2 } as const;
const entry = (date: string, stops: number, total: number, courierId = 'c1') => ({ date, stops, total, courierId });
const check = (periodStart: string, periodEnd: string, createdAt: string, courierId = 'c1') => ({ periodStart, periodEnd, courierId, createdAt });

describe('a courier’s pay periods', () => {
  it('runs from the first logged day to the current period, newest first, with the log’s figures', () => {
    const { rows, others } = courierPeriods(
      courier,
      [entry('2025-02-10', 100, 19_800), entry('2025-03-11', 120, 23_260), entry('2025-03-11', 5, 990), entry('2025-03-12', 300, 50_000, 'c2')],
      [],
      [{ courierId: 'c1', label: 'Van hire', amount: 19_500, repeat: 'weekly', from: '2025-03-03', to: null }],
      '2025-04-07',
    );
    expect(rows.map((r) => `${r.period.start}..${r.period.end}`)).toEqual(['2025-04-06..2025-05-03', '2025-03-02..2025-04-05', '2025-02-02..2025-03-01']);
    expect(rows[0]).toMatchObject({ current: true, payDate: '2025-05-17', log: { days: 0, stops: 0, gross: 0, deductions: 4 * 19_500, net: -4 * 19_500 } });
    expect(rows[1]).toMatchObject({ current: false, log: { days: 1, stops: 125, gross: 24_250, deductions: 5 * 19_500, net: 24_250 - 5 * 19_500 } });
    expect(others).toEqual([]);
  });

  it('shows the current period alone when nothing is logged, and puts checks under their period or aside', () => {
    const fits = [check('2025-03-02', '2025-04-05', '2025-04-08T10:00:00Z'), check('2025-03-02', '2025-04-05', '2025-04-09T10:00:00Z')];
    const misfit = check('2025-03-16', '2025-03-22', '2025-03-23T10:00:00Z');
    const { rows, others } = courierPeriods(courier, [], [...fits, misfit, check('2025-03-02', '2025-04-05', 'x', 'c2')], [], '2025-04-07');
    expect(rows.map((r) => r.period.start)).toEqual(['2025-04-06', '2025-03-02']);
    expect(rows[1]!.checks).toEqual([fits[1], fits[0]]);
    expect(others).toEqual([misfit]);
    expect(courierPeriods(courier, [], [], [], '2025-04-07').rows).toHaveLength(1);
  });
});

describe('the logged days of a range (issue 30: found by binary search, not a filter per period)', () => {
  const day = fc.integer({ min: 0, max: 60 }).map((n) => addDays('2025-03-01', n));
  const entries = fc.array(fc.record({ date: day, stops: fc.integer({ min: 0, max: 300 }), total: fc.integer({ min: 0, max: 100_000 }) }), { maxLength: 40 });

  it('holds exactly the dates in the range, both ends included, each date’s entries added up', () => {
    fc.assert(
      fc.property(entries, day, day, (all, a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const inRange = all.filter((e) => e.date >= from && e.date <= to);
        const dates = [...new Set(inRange.map((e) => e.date))].sort();
        expect(loggedDays(all).between(from, to)).toEqual(
          dates.map((date) => {
            const own = inRange.filter((e) => e.date === date);
            return { date, stops: own.reduce((sum, e) => sum + e.stops, 0), total: own.reduce((sum, e) => sum + e.total, 0) };
          }),
        );
      }),
    );
  });

  it('a day on the range’s first and last date is in it, the days either side are not', () => {
    const days = loggedDays([entry('2025-04-05', 1, 10), entry('2025-04-06', 2, 20), entry('2026-04-05', 3, 30), entry('2026-04-06', 4, 40)]);
    expect(days.between('2025-04-06', '2026-04-05')).toEqual([
      { date: '2025-04-06', stops: 2, total: 20 },
      { date: '2026-04-05', stops: 3, total: 30 },
    ]);
  });

  it('gives every period the same log as filtering the entries for it', () => {
    fc.assert(
      fc.property(entries, (all) => {
        const own = all.map((e) => ({ ...e, courierId: 'c1' }));
        const { rows } = courierPeriods(courier, own, [], [], '2025-05-10');
        for (const { period, log } of rows) {
          const days = own.filter((e) => period.start <= e.date && e.date <= period.end);
          expect(log).toMatchObject({ days: new Set(days.map((e) => e.date)).size, stops: days.reduce((s, e) => s + e.stops, 0), gross: days.reduce((s, e) => s + e.total, 0) });
        }
      }),
    );
  });
});
