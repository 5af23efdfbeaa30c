// Income Tax on a year's self-employment profit, for the rest of the UK's bands or Scotland's.
// The profit is taken as the driver's only income (the screen says so): no wages, savings or
// pension are known to the app. Bands and allowances are data (tax-years.json).
//
// Rounding: each band's tax is kept exact (pence × percent, an integer for whole percents) and
// the sum is rounded DOWN to the penny once, as HMRC's own calculation rounds tax in the
// taxpayer's favour. The Personal Allowance taper takes £1 for every whole £2 of income over the
// taper threshold (GOV.UK "Income Tax rates and Personal Allowances": "goes down by £1 for every
// £2 of income above £100,000"; ITA 2007 s35), so an odd pound or a few pence over never cut the
// allowance by part of a pound: the allowance stays in whole pounds, in the taxpayer's favour.
import type { IncomeTaxRegion, TaxYearRates } from './tax-year';

export interface IncomeTaxBandLine {
  name: string;
  percent: number;
  /** Taxable income (pence) that falls in this band. */
  income: number;
  /** The band's tax, exact hundredths of a penny are dropped only in the total. */
  tax: number;
}

export interface IncomeTaxEstimate {
  region: IncomeTaxRegion;
  /** The Personal Allowance after the taper (pence). */
  personalAllowance: number;
  /** Profit above the allowance (pence). */
  taxableIncome: number;
  /** Every band with income in it, lowest first. */
  bands: IncomeTaxBandLine[];
  /** Rounded down to the penny. */
  tax: number;
}

type AllowanceRates = Pick<TaxYearRates, 'personalAllowance' | 'personalAllowanceTaperFrom'>;

/** The Personal Allowance for an income (pence): £1 less for every whole £2 over the taper threshold, never below 0. */
export function personalAllowanceFor(income: number, rates: AllowanceRates): number {
  const over = Math.max(0, income - rates.personalAllowanceTaperFrom);
  return Math.max(0, rates.personalAllowance - Math.floor(over / 200) * 100);
}

/** Income Tax on `profit` (pence, the year's only income) with the `region`'s bands of `rates`. */
export function incomeTax(profit: number, rates: Pick<TaxYearRates, 'personalAllowance' | 'personalAllowanceTaperFrom' | 'incomeTax'>, region: IncomeTaxRegion): IncomeTaxEstimate {
  const income = Math.max(0, profit);
  const personalAllowance = personalAllowanceFor(income, rates);
  const taxableIncome = Math.max(0, income - personalAllowance);
  const bands: IncomeTaxBandLine[] = [];
  // Hundredths of a penny, exact: pence × whole percent.
  let exact = 0;
  let below = 0;
  for (const band of rates.incomeTax[region]) {
    if (taxableIncome <= below) break;
    const top = band.upTo === null ? taxableIncome : Math.min(taxableIncome, band.upTo);
    const inBand = top - below;
    const bandExact = inBand * band.percent;
    exact += bandExact;
    bands.push({ name: band.name, percent: band.percent, income: inBand, tax: Math.floor(bandExact / 100) });
    below = top;
  }
  return { region, personalAllowance, taxableIncome, bands, tax: Math.floor(exact / 100) };
}
