import { describe, expect, it } from 'vitest';
import { addDays } from '@/lib/week';
import { checkTotal, totalSentence, MAX_ALTERNATIVES, TRIPLE_SEARCH_MAX_DAYS, type TotalEntry, type TotalStatement } from './total-check';

const entry = (date: string, stops: number, total: number): TotalEntry => ({ date, stops, total });

// Mon 11 – Fri 15 November 2024.
const WEEK = [
  entry('2024-11-11', 110, 21_780),
  entry('2024-11-12', 120, 21_780 + 1_480), // 110 at £1.98 + 10 at £1.48
  entry('2024-11-13', 95, 18_810),
  entry('2024-11-14', 130, 24_740),
  entry('2024-11-15', 100, 19_800),
];
const WEEK_TOTAL = WEEK.reduce((sum, e) => sum + e.total, 0);
const WEEK_STOPS = WEEK.reduce((sum, e) => sum + e.stops, 0);

const statement = (paid: number, stops: number | null = null, periodStart = '2024-11-10', periodEnd = '2024-11-16'): TotalStatement => ({
  periodStart,
  periodEnd,
  paid,
  stops,
});

const check = (s: TotalStatement, entries: readonly TotalEntry[] = WEEK) => checkTotal(s, entries);

describe('statement check totals', () => {
  it('adds up the logged days in the period, oldest first, entries on one day together', () => {
    const result = check(statement(0), [...WEEK, entry('2024-11-11', 5, 990)].reverse());
    expect(result.expected).toBe(WEEK_TOTAL + 990);
    expect(result.expectedStops).toBe(WEEK_STOPS + 5);
    expect(result.daysLogged).toBe(5);
    expect(result.days[0]).toEqual({ date: '2024-11-11', stops: 115, total: 22_770 });
    expect(result.days.map((d) => d.date)).toEqual(['2024-11-11', '2024-11-12', '2024-11-13', '2024-11-14', '2024-11-15']);
  });

  it('reports the differences: negative when underpaid, null stops when the statement gives none', () => {
    expect(check(statement(WEEK_TOTAL - 500, WEEK_STOPS - 3))).toMatchObject({ difference: -500, stopsDifference: -3 });
    expect(check(statement(WEEK_TOTAL + 500))).toMatchObject({ difference: 500, stopsDifference: null });
  });

  it('ignores days outside the period, whose totals never explain a shortfall', () => {
    const outside = [entry('2024-11-09', 100, 5_000), entry('2024-11-17', 100, 5_000)];
    const result = check(statement(WEEK_TOTAL - 5_000), [...WEEK, ...outside]);
    expect(result.expected).toBe(WEEK_TOTAL);
    expect(result.daysLogged).toBe(5);
    expect(result.explanation).toEqual({ kind: 'unexplained' });
  });

  it('includes both ends of the period', () => {
    const result = check(statement(0, null, '2024-11-11', '2024-11-15'));
    expect(result.daysLogged).toBe(5);
  });

  it('is an exact match for a period with nothing logged and nothing paid', () => {
    const result = check(statement(0), []);
    expect(result).toMatchObject({ expected: 0, expectedStops: 0, daysLogged: 0, difference: 0, days: [], explanation: { kind: 'match' } });
  });
});

describe('statement check explanations', () => {
  it('matches when the money (and the stops, if given) agree', () => {
    for (const stops of [null, WEEK_STOPS]) {
      const result = check(statement(WEEK_TOTAL, stops));
      expect(result.explanation).toEqual({ kind: 'match' });
      expect(totalSentence(result)).toBe('Your statement matches your log.');
    }
  });

  it('names the one day whose total is the shortfall', () => {
    const result = check(statement(WEEK_TOTAL - 23_260));
    expect(result.explanation).toEqual({ kind: 'missing-days', days: [{ date: '2024-11-12', stops: 120, total: 23_260 }], alternatives: 0 });
    expect(totalSentence(result)).toBe(
      'Your statement is £232.60 short. That matches Tue 12/11/2024 (120 stops, £232.60), which may be missing from the statement.',
    );
  });

  it('names two days when no single day explains it', () => {
    // 18,810 + 19,800: no single day, and no other pair, adds up to 38,610.
    const result = check(statement(WEEK_TOTAL - 38_610));
    expect(result.explanation).toMatchObject({ kind: 'missing-days', alternatives: 0 });
    expect(totalSentence(result)).toBe(
      'Your statement is £386.10 short. That matches Wed 13/11/2024 (95 stops, £188.10) and Fri 15/11/2024 (100 stops, £198.00), which may be missing from the statement.',
    );
  });

  it('names three days when no single day or pair explains it', () => {
    const entries = [entry('2025-03-03', 10, 1_000), entry('2025-03-04', 20, 2_000), entry('2025-03-05', 40, 4_000), entry('2025-03-06', 80, 8_000)];
    const result = check(statement(15_000 - 13_000, null, '2025-03-02', '2025-03-08'), entries);
    expect(result.explanation).toMatchObject({ kind: 'missing-days', alternatives: 0 });
    expect(totalSentence(result)).toBe(
      'Your statement is £130.00 short. That matches Mon 03/03/2025 (10 stops, £10.00), Wed 05/03/2025 (40 stops, £40.00) and Thu 06/03/2025 (80 stops, £80.00), which may be missing from the statement.',
    );
  });

  it('prefers the smallest set of days', () => {
    // 30.00 is one day, and also two other days together.
    const entries = [entry('2025-03-03', 10, 1_000), entry('2025-03-04', 20, 2_000), entry('2025-03-05', 30, 3_000)];
    const result = check(statement(3_000, null, '2025-03-02', '2025-03-08'), entries);
    expect(result.explanation).toEqual({ kind: 'missing-days', days: [{ date: '2025-03-05', stops: 30, total: 3_000 }], alternatives: 0 });
  });

  it('uses the statement’s stops to tell apart two days with the same total', () => {
    const entries = [entry('2025-03-03', 100, 15_000), entry('2025-03-04', 120, 15_000), entry('2025-03-05', 90, 13_000)];
    const paid = 43_000 - 15_000;
    const withStops = check(statement(paid, 310 - 120, '2025-03-02', '2025-03-08'), entries);
    expect(withStops.explanation).toEqual({ kind: 'missing-days', days: [{ date: '2025-03-04', stops: 120, total: 15_000 }], alternatives: 0 });
    // Without stops both days fit: the first is named and the other counted.
    const withoutStops = check(statement(paid, null, '2025-03-02', '2025-03-08'), entries);
    expect(withoutStops.explanation).toEqual({ kind: 'missing-days', days: [{ date: '2025-03-03', stops: 100, total: 15_000 }], alternatives: 1 });
    expect(totalSentence(withoutStops)).toMatch(/which may be missing from the statement\. 1 other day matches too, so check which\.$/);
    // Stops that fit neither day: the money alone is not enough to name one.
    expect(check(statement(paid, 310 - 50, '2025-03-02', '2025-03-08'), entries).explanation).toEqual({ kind: 'unexplained' });
  });

  it('names the earliest pair when several fit, and counts the others', () => {
    // 30.00 short: 05/03 + 06/03 is found first in a scan, but 03/03 + 07/03 starts earlier.
    const entries = [entry('2025-03-03', 1, 1_000), entry('2025-03-05', 1, 500), entry('2025-03-06', 1, 2_500), entry('2025-03-07', 1, 2_000)];
    const result = check(statement(6_000 - 3_000, null, '2025-03-02', '2025-03-08'), entries);
    expect(result.explanation).toMatchObject({ kind: 'missing-days', alternatives: 1 });
    if (result.explanation.kind !== 'missing-days') throw new Error('expected missing days');
    expect(result.explanation.days.map((d) => d.date)).toEqual(['2025-03-03', '2025-03-07']);
    expect(totalSentence(result)).toMatch(/ 1 other pair of days matches too, so check which\.$/);
  });

  it('counts every other equally small set', () => {
    const entries = ['2025-03-03', '2025-03-04', '2025-03-05', '2025-03-06'].map((d) => entry(d, 100, 15_000));
    const single = check(statement(45_000, null, '2025-03-02', '2025-03-08'), entries);
    expect(single.explanation).toMatchObject({ kind: 'missing-days', days: [{ date: '2025-03-03' }], alternatives: 3 });
    expect(totalSentence(single)).toMatch(/ 3 other days match too, so check which\.$/);
    const pair = check(statement(30_000, null, '2025-03-02', '2025-03-08'), entries);
    expect(pair.explanation).toMatchObject({ kind: 'missing-days', alternatives: 5 }); // 4 choose 2 = 6 pairs
    expect(totalSentence(pair)).toMatch(/ 5 other pairs of days match too/);
    const triple = check(statement(15_000, null, '2025-03-02', '2025-03-08'), entries);
    expect(triple.explanation).toMatchObject({ kind: 'missing-days', alternatives: 3 }); // 4 choose 3 = 4 sets
    expect(totalSentence(triple)).toMatch(/ 3 other sets of three days match too/);
  });

  it('puts a missing day with no stops (extra pay only) ahead of a rate difference', () => {
    const entries = [entry('2025-03-03', 100, 15_000), entry('2025-03-04', 0, 5_000)];
    const result = check(statement(15_000, 100, '2025-03-02', '2025-03-08'), entries);
    expect(result.explanation).toEqual({ kind: 'missing-days', days: [{ date: '2025-03-04', stops: 0, total: 5_000 }], alternatives: 0 });
    expect(totalSentence(result)).toContain('Tue 04/03/2025 (0 stops, £50.00)');
  });

  it('explains the same stops for different money as a rate difference', () => {
    const under = check(statement(WEEK_TOTAL - 6_650, WEEK_STOPS)); // 6,650 / 555 stops = 11.98p
    expect(under.explanation).toEqual({ kind: 'rate', perStop: -12, stops: 555 });
    expect(totalSentence(under)).toBe('Your statement is £66.50 short for the same 555 stops: the rate paid is about £0.12 a stop lower than your log.');
    const over = check(statement(WEEK_TOTAL + 5_550, WEEK_STOPS));
    expect(over.explanation).toEqual({ kind: 'rate', perStop: 10, stops: 555 });
    expect(totalSentence(over)).toBe('You were paid £55.50 more for the same 555 stops: the rate paid is about £0.10 a stop higher than your log.');
  });

  it('rounds the rate per stop half away from zero, and words a rate under a penny', () => {
    const entries = [entry('2025-03-03', 10, 1_500)];
    const perStop = (paid: number) => {
      const { explanation } = check(statement(paid, 10, '2025-03-02', '2025-03-08'), entries);
      return explanation.kind === 'rate' ? explanation.perStop : explanation.kind;
    };
    expect(perStop(1_500 + 25)).toBe(3);
    expect(perStop(1_500 - 25)).toBe(-3);
    expect(perStop(1_500 + 24)).toBe(2);
    expect(perStop(1_500 - 24)).toBe(-2);
    expect(perStop(1_500 - 4)).toBe(0);
    const tiny = check(statement(1_496, 10, '2025-03-02', '2025-03-08'), entries);
    expect(totalSentence(tiny)).toBe('Your statement is £0.04 short for the same 10 stops: the rate paid is under £0.01 a stop lower than your log.');
  });

  it('groups thousands of stops and says one stop in the singular', () => {
    const many = check(statement(300_000 - 1_200, 1_200, '2025-03-02', '2025-03-08'), [entry('2025-03-03', 1_200, 300_000)]);
    expect(totalSentence(many)).toContain('for the same 1,200 stops');
    const one = check(statement(150, 1, '2025-03-02', '2025-03-08'), [entry('2025-03-03', 1, 198)]);
    expect(totalSentence(one)).toContain('for the same 1 stop:');
  });

  it('says when the driver was paid more than the log', () => {
    for (const stops of [null, WEEK_STOPS + 5]) {
      const result = check(statement(WEEK_TOTAL + 1_250, stops));
      expect(result.explanation).toEqual({ kind: 'overpaid' });
      expect(totalSentence(result)).toBe('You were paid £12.50 more than your log says.');
    }
  });

  it('is unexplained when nothing in the log makes up a shortfall', () => {
    const result = check(statement(WEEK_TOTAL - 1_234, WEEK_STOPS - 7));
    expect(result.explanation).toEqual({ kind: 'unexplained' });
    expect(totalSentence(result)).toBe(
      'Your statement is £12.34 short, and no logged day or small set of days makes up the difference. It shows 7 stops fewer than your log (548 against 555).',
    );
    expect(totalSentence(check(statement(WEEK_TOTAL - 1_234)))).toBe(
      'Your statement is £12.34 short, and no logged day or small set of days makes up the difference.',
    );
  });

  it('is unexplained when the money matches but the stops do not', () => {
    const result = check(statement(WEEK_TOTAL, WEEK_STOPS + 1));
    expect(result.explanation).toEqual({ kind: 'unexplained' });
    expect(totalSentence(result)).toBe("Your statement's money matches your log, but its stops do not. It shows 1 stop more than your log (556 against 555).");
  });
});

describe('statement check on long periods', () => {
  // A statement for all of 2024 (a leap year): one entry a day, every total different.
  const YEAR = Array.from({ length: 366 }, (_, i) => entry(addDays('2024-01-01', i), 100, 10_000 + i));
  const yearTotal = YEAR.reduce((sum, e) => sum + e.total, 0);

  it('finds a missing pair among 366 days and caps the count of alternatives', () => {
    // 10,000 + i and 10,000 + j with i + j = 305: 153 pairs, the earliest is 1 January + 1 November (day 306).
    const result = check(statement(yearTotal - 20_305, null, '2024-01-01', '2024-12-31'), YEAR);
    expect(result.daysLogged).toBe(366);
    expect(result.explanation).toMatchObject({ kind: 'missing-days', alternatives: MAX_ALTERNATIVES });
    if (result.explanation.kind !== 'missing-days') throw new Error('expected missing days');
    expect(result.explanation.days.map((d) => d.date)).toEqual(['2024-01-01', '2024-11-01']);
    expect(totalSentence(result)).toMatch(/ At least 99 other pairs of days match too, so check which\.$/);
  });

  it('names a single day among 366', () => {
    const result = check(statement(yearTotal - 10_100, null, '2024-01-01', '2024-12-31'), YEAR);
    expect(result.explanation).toEqual({ kind: 'missing-days', days: [{ date: '2024-04-10', stops: 100, total: 10_100 }], alternatives: 0 });
  });

  it(`searches sets of three only up to ${TRIPLE_SEARCH_MAX_DAYS} logged days`, () => {
    // Totals £10, £20 … £620: the three biggest make £1,830, which no one day or pair reaches.
    const days = Array.from({ length: TRIPLE_SEARCH_MAX_DAYS }, (_, i) => entry(addDays('2025-01-01', i), 10, 1_000 * (i + 1)));
    const total = days.reduce((sum, e) => sum + e.total, 0);
    const period = (paid: number): TotalStatement => statement(paid, null, '2025-01-01', '2025-12-31');
    const within = check(period(total - 183_000), days);
    expect(within.explanation).toMatchObject({ kind: 'missing-days', alternatives: 0 });
    if (within.explanation.kind !== 'missing-days') throw new Error('expected missing days');
    expect(within.explanation.days.map((d) => d.total)).toEqual([60_000, 61_000, 62_000]);
    // One more logged day (1p, so no new sums near £1,830) and the search stops at pairs.
    const beyond = check(period(total + 1 - 183_000), [...days, entry('2025-12-31', 1, 1)]);
    expect(beyond.daysLogged).toBe(TRIPLE_SEARCH_MAX_DAYS + 1);
    expect(beyond.explanation).toEqual({ kind: 'unexplained' });
  });
});
