// The UK tax year and its dates: 6 April to 5 April and the Self Assessment deadlines (the
// Making Tax Digital quarters are core/mtd/quarters.ts, data per year). The dates are rules of the calendar (HMRC's own), so they are code;
// rates and thresholds change by year, so they are data (tax-years.json) read through
// taxYearRates.
import data from './tax-years.json';

/** A tax year as HMRC writes it: "2026-27" runs 6 April 2026 to 5 April 2027. */
export type TaxYearLabel = `${number}-${number}`;

export type IncomeTaxRegion = 'uk' | 'scotland';

export interface IncomeTaxBand {
  name: string;
  /** Upper limit of taxable income (after the Personal Allowance), pence; null = none. */
  upTo: number | null;
  percent: number;
}

export interface MileageRate {
  firstMilesPence: number;
  afterPence: number;
  thresholdMiles: number;
}

export interface TaxYearRates {
  personalAllowance: number;
  personalAllowanceTaperFrom: number;
  incomeTax: Record<IncomeTaxRegion, IncomeTaxBand[]>;
  class4: { lowerProfitsLimit: number; upperProfitsLimit: number; mainPercent: number; upperPercent: number };
  /** Class 2: `weeks` is the year's number of contribution weeks (52, some years 53). */
  class2: { weeklyPence: number | null; weeks: number; voluntary: boolean; payableFromProfits: number | null };
  tradingAllowance: number;
  paymentsOnAccountFrom: number;
  /** Pence per business mile by vehicle type; null: no flat rate (a bicycle: actual costs). */
  mileage: { carVan: MileageRate; motorcycle: MileageRate; bicycle: MileageRate | null };
}

const years = data.years as Record<string, TaxYearRates>;

/** The first calendar year of a tax year: 2026 for "2026-27". */
export function startYearOf(label: TaxYearLabel): number {
  return Number(label.slice(0, 4));
}

/** Each label made once: the screens ask the tax year of every record on the device. */
const labels = new Map<number, TaxYearLabel>();

export function taxYearLabel(startYear: number): TaxYearLabel {
  let label = labels.get(startYear);
  if (label === undefined) {
    label = `${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}` as TaxYearLabel;
    labels.set(startYear, label);
  }
  return label;
}

/** The tax year a day (YYYY-MM-DD) falls in: 5 April is the last day of a year, 6 April the first. */
export function taxYearOf(day: string): TaxYearLabel {
  const year = Number(day.slice(0, 4));
  return taxYearLabel(day.slice(5) >= '04-06' ? year : year - 1);
}

export function taxYearBounds(label: TaxYearLabel): { from: string; to: string } {
  const start = startYearOf(label);
  return { from: `${start}-04-06`, to: `${start + 1}-04-05` };
}

export const currentTaxYear = taxYearOf;

/** The years the app has rates for, oldest first. */
export function knownTaxYears(): TaxYearLabel[] {
  return (Object.keys(years) as TaxYearLabel[]).sort();
}

/**
 * The rates of a tax year. A year missing from the data (a new year before an update, or one
 * long past) takes the nearest known year's, marked `assumed` so the screen can say so.
 */
export function taxYearRates(label: TaxYearLabel): { rates: TaxYearRates; from: TaxYearLabel; assumed: boolean } {
  const known = years[label];
  if (known) return { rates: known, from: label, assumed: false };
  const labels = knownTaxYears();
  const [oldest, newest] = [labels[0], labels[labels.length - 1]];
  if (!oldest || !newest) throw new Error('tax-years.json has no years');
  const nearest = label < oldest ? oldest : newest;
  return { rates: years[nearest] as TaxYearRates, from: nearest, assumed: true };
}

export interface MtdRules {
  yearsAfterQualifyingYear: number;
  /** The qualifying-income threshold (pence) of each tax year MTD applies in. */
  thresholdFrom: Record<string, number>;
}

export const mtdRules: MtdRules = data.mtd;

export interface SelfAssessmentDates {
  /** The online return and the balancing payment: 31 January after the year ends. */
  returnAndBalance: string;
  /** This year's payments on account (each half of last year's bill): 31 January in the year, 31 July after it. */
  paymentsOnAccount: [string, string];
  /** The next year's payments on account, based on this year's bill. */
  nextPaymentsOnAccount: [string, string];
}

export function selfAssessmentDates(label: TaxYearLabel): SelfAssessmentDates {
  const y = startYearOf(label);
  return {
    returnAndBalance: `${y + 2}-01-31`,
    paymentsOnAccount: [`${y + 1}-01-31`, `${y + 1}-07-31`],
    nextPaymentsOnAccount: [`${y + 2}-01-31`, `${y + 2}-07-31`],
  };
}

/** Records must be kept at least 5 years after the 31 January online deadline of their tax year. */
export function recordsKeptUntil(label: TaxYearLabel): string {
  return `${startYearOf(label) + 7}-01-31`;
}
