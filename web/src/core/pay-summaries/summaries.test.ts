import { afterEach, describe, expect, it, vi } from 'vitest';
import { addDays } from '@/lib/week';
import type { PayDeduction } from './pay-summary';
import { monthlySummaries, weeklySeries, weeklySummaries, type SummaryEntry } from './summaries';

const entry = (date: string, stops = 100, total = 15_000): SummaryEntry => ({ date, stops, total, courierId: 'courier-1', startTime: null, finishTime: null });

/** A period's money with no deductions and no times: net is gross. */
const noCharges = (gross: number, stops: number, daysWorked: number, perStop: number) => ({
  stops,
  gross,
  deductions: 0,
  net: gross,
  daysWorked,
  minutesWorked: 0,
  perHour: null,
  timedDays: 0,
  netPerHour: null,
  perStop,
  parcels: 0,
  perParcel: null,
});

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
      { key: '2024-11-03', start: '2024-11-03', end: '2024-11-09', label: 'Week of 03/11/2024', ...noCharges(18_000, 120, 1, 150) },
      { key: '2024-10-27', start: '2024-10-27', end: '2024-11-02', label: 'Week of 27/10/2024', ...noCharges(31_500, 210, 2, 150) },
      { key: '2024-10-20', start: '2024-10-20', end: '2024-10-26', label: 'Week of 20/10/2024', ...noCharges(13_000, 90, 1, 144) }, // 144.44…
    ]);
  });

  it('counts several entries on one day as one day worked, but adds up their stops and money', () => {
    const [week] = weeklySummaries([entry('2025-03-17', 60, 9_000), entry('2025-03-17', 40, 6_000), entry('2025-03-18', 10, 1_500)]);
    expect(week).toMatchObject({ stops: 110, gross: 16_500, daysWorked: 2 });
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
      { key: '2025-01', label: 'January 2025', ...noCharges(18_000, 120, 1, 150) },
      { key: '2024-12', label: 'December 2024', ...noCharges(30_000, 200, 2, 150) },
      { key: '2024-11', label: 'November 2024', ...noCharges(15_000, 100, 1, 150) },
    ]);
  });

  it('splits a week that straddles two months between them', () => {
    // Sun 27/10/2024 – Sat 02/11/2024 is one week but two months.
    const entries = ['2024-10-27', '2024-10-31', '2024-11-01', '2024-11-02'].map((d) => entry(d));
    expect(weeklySummaries(entries)).toHaveLength(1);
    expect(monthlySummaries(entries).map((m) => [m.key, m.daysWorked])).toEqual([['2024-11', 2], ['2024-10', 2]]);
  });
});

describe('deductions in the summaries', () => {
  // £200 van hire every Monday from 3 March 2025; a £35 one-off damage charge on 20 March.
  const vanHire: PayDeduction = { courierId: 'courier-1', amount: 20_000, repeat: 'weekly', from: '2025-03-03', to: null };
  const damage: PayDeduction = { courierId: 'courier-1', amount: 3_500, repeat: 'once', from: '2025-03-20', to: null };
  const days = [entry('2025-03-04', 100, 19_800), entry('2025-03-18', 120, 23_260), entry('2025-03-20', 90, 17_820)];

  it('takes each week’s charges off its gross, and lists a week charged but not worked', () => {
    const weeks = weeklySummaries(days, [vanHire, damage], { from: '2025-03-01', to: '2025-03-22' });
    expect(weeks.map((w) => [w.key, w.gross, w.deductions, w.net, w.daysWorked])).toEqual([
      ['2025-03-16', 41_080, 23_500, 17_580, 2],
      ['2025-03-09', 0, 20_000, -20_000, 0], // a week off still pays the van
      ['2025-03-02', 19_800, 20_000, -200, 1],
    ]);
  });

  it('counts only the charges inside the range, even in a week or month it cuts', () => {
    // From Tuesday 4 March: Monday 3 March's van hire is outside; to Wednesday 19 March: the damage is too.
    const range = { from: '2025-03-04', to: '2025-03-19' };
    const inRange = days.filter((d) => d.date >= range.from && d.date <= range.to);
    expect(weeklySummaries(inRange, [vanHire, damage], range).map((w) => [w.key, w.deductions])).toEqual([
      ['2025-03-16', 20_000],
      ['2025-03-09', 20_000],
      ['2025-03-02', 0],
    ]);
    expect(monthlySummaries(inRange, [vanHire, damage], range).map((m) => [m.key, m.gross, m.deductions, m.net])).toEqual([['2025-03', 43_060, 40_000, 3_060]]);
  });

  it('without a range, charges a period over its whole length, and lists only periods with days', () => {
    expect(monthlySummaries(days, [vanHire, damage]).map((m) => [m.key, m.deductions])).toEqual([['2025-03', 5 * 20_000 + 3_500]]);
  });

  it('gives each period its £ per hour over the days with times', () => {
    const timed = [{ ...entry('2025-03-18', 120, 23_260), startTime: '07:00', finishTime: '16:00' }, entry('2025-03-20', 90, 17_820)];
    const [week] = weeklySummaries(timed);
    expect(week).toMatchObject({ minutesWorked: 540, perHour: 2_584, perStop: 196 }); // 23260 / 9 h = 2584.4; 41080 / 210 = 195.6
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
