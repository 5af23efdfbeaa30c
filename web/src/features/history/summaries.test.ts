import { afterEach, describe, expect, it, vi } from 'vitest';
import { addDays } from '@/lib/week';
import { monthlySummaries, weeklySeries, weeklySummaries, type SummaryEntry } from './summaries';

const entry = (date: string, stops = 100, total = 15_000): SummaryEntry => ({ date, stops, total });

afterEach(() => vi.unstubAllEnvs());

describe('weekly summaries', () => {
  it('is empty with no entries', () => {
    expect(weeklySummaries([])).toEqual([]);
  });

  it('groups Sunday to Saturday, newest week first, with its label and range', () => {
    const weeks = weeklySummaries([
      entry('2024-10-26', 90, 13_000), // Saturday: the week before
      entry('2024-10-27', 100, 15_000), // Sunday
      entry('2024-11-02', 110, 16_500), // Saturday
      entry('2024-11-03', 120, 18_000), // Sunday: the next week
    ]);
    expect(weeks).toEqual([
      { key: '2024-11-03', start: '2024-11-03', end: '2024-11-09', label: 'Week of 03/11/2024', stops: 120, earnings: 18_000, daysWorked: 1 },
      { key: '2024-10-27', start: '2024-10-27', end: '2024-11-02', label: 'Week of 27/10/2024', stops: 210, earnings: 31_500, daysWorked: 2 },
      { key: '2024-10-20', start: '2024-10-20', end: '2024-10-26', label: 'Week of 20/10/2024', stops: 90, earnings: 13_000, daysWorked: 1 },
    ]);
  });

  it('counts several entries on one day as one day worked, but adds up their stops and money', () => {
    const [week] = weeklySummaries([entry('2025-03-17', 60, 9_000), entry('2025-03-17', 40, 6_000), entry('2025-03-18', 10, 1_500)]);
    expect(week).toMatchObject({ stops: 110, earnings: 16_500, daysWorked: 2 });
  });

  it('keeps a week across the year end together (Sun 29/12/2024 – Sat 04/01/2025)', () => {
    const weeks = weeklySummaries(['2024-12-29', '2024-12-31', '2025-01-01', '2025-01-04'].map((d) => entry(d)));
    expect(weeks).toHaveLength(1);
    expect(weeks[0]).toMatchObject({ key: '2024-12-29', end: '2025-01-04', label: 'Week of 29/12/2024', daysWorked: 4 });
  });

  it('does not depend on the input order', () => {
    const entries = ['2025-01-09', '2024-12-30', '2025-01-05', '2024-12-29'].map((d) => entry(d));
    expect(weeklySummaries(entries)).toEqual(weeklySummaries([...entries].reverse()));
    expect(weeklySummaries(entries).map((w) => w.key)).toEqual(['2025-01-05', '2024-12-29']);
  });
});

describe('monthly summaries', () => {
  it('is empty with no entries', () => {
    expect(monthlySummaries([])).toEqual([]);
  });

  it('groups by calendar month across the year end, newest first, named in words', () => {
    const months = monthlySummaries([
      entry('2024-11-30', 100, 15_000),
      entry('2024-12-01', 100, 15_000),
      entry('2024-12-31', 50, 7_500),
      entry('2024-12-31', 50, 7_500),
      entry('2025-01-01', 120, 18_000),
    ]);
    expect(months).toEqual([
      { key: '2025-01', label: 'January 2025', stops: 120, earnings: 18_000, daysWorked: 1 },
      { key: '2024-12', label: 'December 2024', stops: 200, earnings: 30_000, daysWorked: 2 },
      { key: '2024-11', label: 'November 2024', stops: 100, earnings: 15_000, daysWorked: 1 },
    ]);
  });

  it('splits a week that straddles two months between them', () => {
    // Sun 27/10/2024 – Sat 02/11/2024 is one week but two months.
    const entries = ['2024-10-27', '2024-10-31', '2024-11-01', '2024-11-02'].map((d) => entry(d));
    expect(weeklySummaries(entries)).toHaveLength(1);
    expect(monthlySummaries(entries).map((m) => [m.key, m.daysWorked])).toEqual([['2024-11', 2], ['2024-10', 2]]);
  });
});

describe('the clock changes do not move entries', () => {
  // BST starts Sun 30/03/2025 and ends Sun 26/10/2025. Entries either side of each change.
  const around = ['2025-03-29', '2025-03-30', '2025-03-31', '2025-04-05', '2025-04-06', '2025-10-25', '2025-10-26', '2025-10-27', '2025-11-01', '2025-11-02'];
  const entries = around.map((d, i) => entry(d, 100 + i, 15_000 + i));

  it('puts the change days in their own Sunday weeks', () => {
    expect(weeklySummaries(entries).map((w) => [w.key, w.daysWorked])).toEqual([
      ['2025-11-02', 1],
      ['2025-10-26', 3],
      ['2025-10-19', 1],
      ['2025-04-06', 1],
      ['2025-03-30', 3],
      ['2025-03-23', 1],
    ]);
  });

  it('groups identically whatever the device time zone', () => {
    const results = ['UTC', 'Europe/London', 'America/Los_Angeles', 'Pacific/Auckland'].map((zone) => {
      vi.stubEnv('TZ', zone);
      return { weeks: weeklySummaries(entries), months: monthlySummaries(entries), series: weeklySeries(entries) };
    });
    for (const result of results.slice(1)) expect(result).toEqual(results[0]);
    expect(results[0]?.weeks.find((w) => w.key === '2025-03-30')?.label).toBe('Week of 30/03/2025');
  });
});

describe('weekly series', () => {
  it('is empty with no entries and no range', () => {
    expect(weeklySeries([])).toEqual([]);
  });

  it('runs oldest first from the first week to the last, with empty weeks as zeros', () => {
    const series = weeklySeries([entry('2025-01-15', 100, 15_000), entry('2024-12-31', 80, 12_000), entry('2024-12-29', 20, 3_000)]);
    expect(series).toEqual([
      { weekStart: '2024-12-29', stops: 100, earnings: 15_000 },
      { weekStart: '2025-01-05', stops: 0, earnings: 0 },
      { weekStart: '2025-01-12', stops: 100, earnings: 15_000 },
    ]);
  });

  it('covers the weeks of a given range and counts only the days inside it', () => {
    const entries = [entry('2025-03-01'), entry('2025-03-05'), entry('2025-03-12'), entry('2025-03-29')];
    // Wed 05/03 to Wed 19/03: Sat 01/03 and Sat 29/03 fall outside, weeks and all.
    expect(weeklySeries(entries, '2025-03-05', '2025-03-19')).toEqual([
      { weekStart: '2025-03-02', stops: 100, earnings: 15_000 },
      { weekStart: '2025-03-09', stops: 100, earnings: 15_000 },
      { weekStart: '2025-03-16', stops: 0, earnings: 0 },
    ]);
    // Thu 06/03 leaves out the Wednesday of the same week.
    expect(weeklySeries(entries, '2025-03-06', '2025-03-08')).toEqual([{ weekStart: '2025-03-02', stops: 0, earnings: 0 }]);
  });

  it('with only one end given, runs to the entries on the other side', () => {
    const entries = [entry('2025-03-05'), entry('2025-03-20')];
    expect(weeklySeries(entries, '2025-02-20').map((p) => p.weekStart)).toEqual(['2025-02-16', '2025-02-23', '2025-03-02', '2025-03-09', '2025-03-16']);
    expect(weeklySeries(entries, undefined, '2025-03-10').map((p) => p.weekStart)).toEqual(['2025-03-02', '2025-03-09']);
  });

  it('is empty for a range that ends before it starts', () => {
    expect(weeklySeries([entry('2025-03-05')], '2025-03-20', '2025-03-01')).toEqual([]);
  });

  it('handles ten years of daily entries', () => {
    const entries = Array.from({ length: 3_650 }, (_, i) => entry(addDays('2015-01-01', i), 100, 15_000));
    const series = weeklySeries(entries);
    expect(series[0]?.weekStart).toBe('2014-12-28');
    expect(series.at(-1)?.weekStart).toBe('2024-12-22');
    expect(series).toHaveLength(522);
    expect(series.reduce((sum, p) => sum + p.stops, 0)).toBe(365_000);
    expect(weeklySummaries(entries)).toHaveLength(522);
    expect(monthlySummaries(entries)).toHaveLength(120);
  });
});
