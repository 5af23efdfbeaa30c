import { describe, expect, it } from 'vitest';
import data from './tax-years.json';
import { type TaxYearRates, knownTaxYears, recordsKeptUntil, selfAssessmentDates, taxYearBounds, taxYearOf, taxYearRates } from './tax-year';

describe('the tax year', () => {
  // HMRC: "The tax year runs from 6 April to 5 April the following year."
  it.each([
    ['2026-04-05', '2025-26'],
    ['2026-04-06', '2026-27'],
    ['2027-01-01', '2026-27'],
    ['2027-04-05', '2026-27'],
    ['2000-04-06', '2000-01'],
    ['2099-12-31', '2099-00'],
  ])('%s is in %s', (day, label) => {
    expect(taxYearOf(day)).toBe(label);
  });

  it('runs from 6 April to 5 April', () => {
    expect(taxYearBounds('2026-27')).toEqual({ from: '2026-04-06', to: '2027-04-05' });
  });

  // GOV.UK "Self Assessment tax returns: deadlines" and "Understanding your Self Assessment tax
  // bill: payments on account"; records kept 5 years after the 31 January submission deadline.
  it('has the Self Assessment dates of the year', () => {
    expect(selfAssessmentDates('2025-26')).toEqual({
      returnAndBalance: '2027-01-31',
      paymentsOnAccount: ['2026-01-31', '2026-07-31'],
      nextPaymentsOnAccount: ['2027-01-31', '2027-07-31'],
    });
    expect(recordsKeptUntil('2025-26')).toBe('2032-01-31');
  });
});

describe('the rates are data per tax year', () => {
  it('has every year from 2023-24 to 2026-27 with the same shape', () => {
    expect(knownTaxYears()).toEqual(['2023-24', '2024-25', '2025-26', '2026-27']);
    const shape = (value: unknown): unknown =>
      value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value).sort() : typeof value;
    const years = data.years as unknown as Record<string, TaxYearRates>;
    const first = data.years['2025-26'];
    for (const label of knownTaxYears()) {
      const year = years[label]!;
      expect(shape(year)).toEqual(shape(first));
      // Bands rise and end open.
      for (const bands of Object.values(year.incomeTax)) {
        const limits = bands.map((band) => band.upTo);
        expect(limits[limits.length - 1]).toBeNull();
        const finite = limits.slice(0, -1) as number[];
        expect([...finite].sort((a, b) => a - b)).toEqual(finite);
      }
    }
  });

  it('takes the nearest known year for a year not in the data, and says so', () => {
    expect(taxYearRates('2026-27')).toMatchObject({ from: '2026-27', assumed: false });
    expect(taxYearRates('2031-32')).toMatchObject({ from: '2026-27', assumed: true });
    expect(taxYearRates('2019-20')).toMatchObject({ from: '2023-24', assumed: true });
  });
});
