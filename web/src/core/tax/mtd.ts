// Whether Making Tax Digital for Income Tax applies: a tax year's qualifying income (gross
// self-employment plus property income, before expenses) over the threshold of the year two
// years later brings the driver in from that later year (GOV.UK "Find out if and when you need
// to use Making Tax Digital for Income Tax": over £50,000 in 2024-25 → from 6 April 2026, over
// £30,000 in 2025-26 → from April 2027, over £20,000 in 2026-27 → from April 2028). The
// thresholds are data (tax-years.json `mtd`).
import { mtdRules, startYearOf, taxYearLabel, type TaxYearLabel } from './tax-year';

export interface MtdYear {
  /** The tax year MTD would apply in. */
  year: TaxYearLabel;
  /** The year whose income decides it. */
  qualifyingYear: TaxYearLabel;
  threshold: number;
  /** The qualifying year's income as logged (pence). */
  income: number;
  required: boolean;
}

/** The year MTD would apply in is decided by its qualifying year's income; null before MTD existed. */
export function mtdFor(year: TaxYearLabel, incomeOf: (year: TaxYearLabel) => number): MtdYear | null {
  const thresholds = Object.entries(mtdRules.thresholdFrom).sort(([a], [b]) => a.localeCompare(b));
  const first = thresholds[0];
  if (!first || year < first[0]) return null;
  // Later years keep the last threshold set.
  const threshold = thresholds.filter(([from]) => from <= year).at(-1)?.[1] ?? first[1];
  const qualifyingYear = taxYearLabel(startYearOf(year) - mtdRules.yearsAfterQualifyingYear);
  const income = incomeOf(qualifyingYear);
  return { year, qualifyingYear, threshold, income, required: income > threshold };
}

/** MTD this year and the two coming years (the ones today's logs decide). */
export function mtdOutlook(current: TaxYearLabel, incomeOf: (year: TaxYearLabel) => number): MtdYear[] {
  const start = startYearOf(current);
  return [0, 1, 2].map((ahead) => mtdFor(taxYearLabel(start + ahead), incomeOf)).filter((year): year is MtdYear => year !== null);
}
