// The Making Tax Digital quarters of a tax year, as the driver elected them (standard or
// calendar), with their deadlines. The dates are HMRC's and change only by law, but they are
// still data per tax year (tax-years.json `mtdQuarters`), never worked out in code: a year
// missing from the data has no quarters here, and the screen says so.
import data from '@/core/tax/tax-years.json';
import type { TaxYearLabel } from '@/core/tax/tax-year';
import type { MtdQuarters } from '@/sync/types';

export type { MtdQuarters };

export type QuarterNumber = 1 | 2 | 3 | 4;

export interface Quarter {
  number: QuarterNumber;
  /** The quarter's own first and last day. */
  from: string;
  to: string;
  /** The update's deadline. */
  due: string;
  /** Where the cumulative update starts: 6 April (standard) or 1 April (calendar). */
  periodStart: string;
}

interface YearQuarters {
  standard: { periodStart: string; quarters: { from: string; to: string; due: string }[] };
  calendar: { periodStart: string; quarters: { from: string; to: string; due: string }[] };
  consolidatedExpensesBelow: number;
  finalDeclarationDue: string;
}

const { about: _about, ...byYear } = data.mtdQuarters;
const years = byYear as Record<string, YearQuarters>;

/** The words the screen uses for each election. */
export const QUARTER_ELECTIONS: Record<MtdQuarters, { label: string; ends: string }> = {
  standard: { label: 'Standard', ends: 'ending 5 July, 5 October, 5 January and 5 April' },
  calendar: { label: 'Calendar', ends: 'ending 30 June, 30 September, 31 December and 31 March' },
};

/** The four quarters of a tax year under an election; none for a year not in the data. */
export function mtdQuarters(year: TaxYearLabel, election: MtdQuarters): Quarter[] {
  const known = years[year];
  if (!known) return [];
  const { periodStart, quarters } = known[election];
  return quarters.map((quarter, index) => ({ ...quarter, number: (index + 1) as QuarterNumber, periodStart }));
}

/** The turnover (pence) below which an update may send one total of expenses; null outside the data. */
export function consolidatedExpensesBelow(year: TaxYearLabel): number | null {
  return years[year]?.consolidatedExpensesBelow ?? null;
}

/** Whether a year's turnover so far lets its updates send consolidated expenses. */
export function consolidatedExpensesAllowed(year: TaxYearLabel, turnover: number): boolean {
  const below = consolidatedExpensesBelow(year);
  return below !== null && turnover < below;
}

/** 31 January after the tax year; null for a year not in the data. */
export function finalDeclarationDue(year: TaxYearLabel): string | null {
  return years[year]?.finalDeclarationDue ?? null;
}

/**
 * The update a day's record goes into: its tax year's quarter under the election. A calendar
 * election's first quarter starts on 1 April, so 1–5 April go into the update of the tax year
 * starting that week (HMRC's calendar periods), not the one ending.
 */
export function quarterOf(day: string, election: MtdQuarters): { year: TaxYearLabel; quarter: Quarter } | null {
  for (const year of Object.keys(years) as TaxYearLabel[]) {
    const quarter = mtdQuarters(year, election).find((q) => q.from <= day && day <= q.to);
    if (quarter) return { year, quarter };
  }
  return null;
}
