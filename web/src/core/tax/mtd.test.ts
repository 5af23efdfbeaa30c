import { describe, expect, it } from 'vitest';
import { mtdFor, mtdOutlook } from './mtd';
import type { TaxYearLabel } from './tax-year';

const income = (byYear: Record<string, number>) => (year: TaxYearLabel) => byYear[year] ?? 0;

describe('Making Tax Digital for Income Tax', () => {
  // GOV.UK: qualifying income over £50,000 in 2024-25 → MTD from 6 April 2026; over £30,000 in
  // 2025-26 → from 6 April 2027; over £20,000 in 2026-27 → from 6 April 2028.
  it.each([
    ['2026-27', '2024-25', 5_000_001, true],
    ['2026-27', '2024-25', 5_000_000, false],
    ['2027-28', '2025-26', 3_000_001, true],
    ['2027-28', '2025-26', 3_000_000, false],
    ['2028-29', '2026-27', 2_000_001, true],
    ['2029-30', '2027-28', 2_000_001, true],
  ] as const)('in %s it is decided by %s (income %i pence → %s)', (year, qualifying, pence, required) => {
    expect(mtdFor(year, income({ [qualifying]: pence }))).toMatchObject({ qualifyingYear: qualifying, income: pence, required });
  });

  it('did not exist before 2026-27', () => {
    expect(mtdFor('2025-26', income({ '2023-24': 9_000_000 }))).toBeNull();
  });

  it('looks at this year and the two coming years', () => {
    const outlook = mtdOutlook('2026-27', income({ '2024-25': 4_000_000, '2025-26': 3_500_000, '2026-27': 1_000_000 }));
    expect(outlook.map(({ year, required }) => [year, required])).toEqual([
      ['2026-27', false],
      ['2027-28', true],
      ['2028-29', false],
    ]);
  });
});
