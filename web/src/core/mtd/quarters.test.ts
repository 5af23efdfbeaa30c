// HMRC's facts, typed here independently of tax-years.json (GOV.UK "Use Making Tax Digital for
// Income Tax: send quarterly updates"): standard quarterly periods run from 6 April and end
// 5 July, 5 October, 5 January and 5 April; a trader may elect calendar periods, from 1 April,
// ending 30 June, 30 September, 31 December and 31 March; both are due by 7 August, 7 November,
// 7 February and 7 May. The final declaration is due 31 January after the tax year.
import { describe, expect, it } from 'vitest';
import { taxYearOf } from '@/core/tax/tax-year';
import { finalDeclarationDue, mtdQuarters, quarterOf } from './quarters';

describe('MTD quarters, from HMRC', () => {
  it.each([
    [
      '2026-27',
      'standard',
      [
        ['2026-04-06', '2026-07-05', '2026-08-07'],
        ['2026-07-06', '2026-10-05', '2026-11-07'],
        ['2026-10-06', '2027-01-05', '2027-02-07'],
        ['2027-01-06', '2027-04-05', '2027-05-07'],
      ],
    ],
    [
      '2026-27',
      'calendar',
      [
        ['2026-04-01', '2026-06-30', '2026-08-07'],
        ['2026-07-01', '2026-09-30', '2026-11-07'],
        ['2026-10-01', '2026-12-31', '2027-02-07'],
        ['2027-01-01', '2027-03-31', '2027-05-07'],
      ],
    ],
    [
      '2027-28',
      'standard',
      [
        ['2027-04-06', '2027-07-05', '2027-08-07'],
        ['2027-07-06', '2027-10-05', '2027-11-07'],
        ['2027-10-06', '2028-01-05', '2028-02-07'],
        ['2028-01-06', '2028-04-05', '2028-05-07'],
      ],
    ],
    [
      '2027-28',
      'calendar',
      [
        ['2027-04-01', '2027-06-30', '2027-08-07'],
        ['2027-07-01', '2027-09-30', '2027-11-07'],
        ['2027-10-01', '2027-12-31', '2028-02-07'],
        ['2028-01-01', '2028-03-31', '2028-05-07'],
      ],
    ],
  ] as const)('%s %s quarters and deadlines', (year, election, want) => {
    const got = mtdQuarters(year, election);
    expect(got.map(({ from, to, due }) => [from, to, due])).toEqual(want);
    // Cumulative: every update starts where the year's first quarter does.
    expect(new Set(got.map((q) => q.periodStart))).toEqual(new Set([want[0][0]]));
    expect(got.map((q) => q.number)).toEqual([1, 2, 3, 4]);
  });

  it.each([
    // Year ends, both elections.
    ['2026-04-05', 'standard', '2025-26', 4],
    ['2026-04-06', 'standard', '2026-27', 1],
    ['2026-03-31', 'calendar', '2025-26', 4],
    ['2026-04-01', 'calendar', '2026-27', 1],
    // 1–5 April: the old tax year, but the new calendar period.
    ['2027-04-03', 'standard', '2026-27', 4],
    ['2027-04-03', 'calendar', '2027-28', 1],
    // Calendar year ends.
    ['2026-12-31', 'standard', '2026-27', 3],
    ['2026-12-31', 'calendar', '2026-27', 3],
    ['2027-01-01', 'calendar', '2026-27', 4],
    ['2027-01-05', 'standard', '2026-27', 3],
    ['2027-01-06', 'standard', '2026-27', 4],
    // Quarter edges inside the year.
    ['2026-07-05', 'standard', '2026-27', 1],
    ['2026-07-06', 'standard', '2026-27', 2],
    ['2026-06-30', 'calendar', '2026-27', 1],
    ['2026-07-01', 'calendar', '2026-27', 2],
    ['2026-10-05', 'standard', '2026-27', 2],
    ['2026-10-06', 'standard', '2026-27', 3],
    ['2026-09-30', 'calendar', '2026-27', 2],
    ['2026-10-01', 'calendar', '2026-27', 3],
    // 29 February 2028, a leap day: the fourth quarter of 2027-28 under both.
    ['2028-02-29', 'standard', '2027-28', 4],
    ['2028-02-29', 'calendar', '2027-28', 4],
    ['2028-03-31', 'calendar', '2027-28', 4],
    ['2028-04-05', 'standard', '2027-28', 4],
  ] as const)('%s under %s quarters is in %s Q%i', (day, election, year, number) => {
    const found = quarterOf(day, election);
    expect(found?.year).toBe(year);
    expect(found?.quarter.number).toBe(number);
  });

  it('has no quarters for a year outside the data, rather than guessing', () => {
    expect(mtdQuarters('2019-20', 'standard')).toEqual([]);
    expect(quarterOf('2019-06-01', 'calendar')).toBeNull();
    expect(finalDeclarationDue('2019-20')).toBeNull();
  });

  it.each([
    ['2026-27', '2028-01-31'],
    ['2027-28', '2029-01-31'],
  ] as const)('the %s final declaration is due %s', (year, due) => {
    expect(finalDeclarationDue(year)).toBe(due);
  });

  it('tiles every year in the data: four quarters, no gap, no overlap, standard inside its tax year', () => {
    for (const year of ['2023-24', '2024-25', '2025-26', '2026-27', '2027-28'] as const) {
      for (const election of ['standard', 'calendar'] as const) {
        const quarters = mtdQuarters(year, election);
        expect(quarters).toHaveLength(4);
        for (const [index, quarter] of quarters.entries()) {
          expect(quarter.from <= quarter.to).toBe(true);
          const next = quarters[index + 1];
          if (next) expect(new Date(Date.parse(`${quarter.to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)).toBe(next.from);
        }
        if (election === 'standard') for (const quarter of quarters) expect([taxYearOf(quarter.from), taxYearOf(quarter.to)]).toEqual([year, year]);
      }
    }
  });
});
