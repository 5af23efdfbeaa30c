// Self-employed National Insurance on a year's profit. Class 4: the main percentage on profits
// between the lower and upper profits limits, the upper percentage above. Class 2: a weekly
// amount, owed only in years whose data says it is not voluntary (from 6 April 2024 it is
// voluntary, so nothing is added). Limits and percentages are data (tax-years.json).
//
// Rounding: each part is kept exact and the total is rounded DOWN to the penny once, as for
// Income Tax (HMRC's worked examples in NIM24051 come out exact at whole pounds of profit).
import type { TaxYearRates } from './tax-year';

export interface Class4Estimate {
  /** Profit (pence) between the lower and upper profits limits, charged the main percentage. */
  mainProfits: number;
  /** Profit above the upper profits limit, charged the upper percentage. */
  upperProfits: number;
  mainPercent: number;
  upperPercent: number;
  /** Rounded down to the penny. */
  contribution: number;
}

export function class4(profit: number, rates: Pick<TaxYearRates, 'class4'>): Class4Estimate {
  const { lowerProfitsLimit, upperProfitsLimit, mainPercent, upperPercent } = rates.class4;
  const mainProfits = Math.max(0, Math.min(profit, upperProfitsLimit) - lowerProfitsLimit);
  const upperProfits = Math.max(0, profit - upperProfitsLimit);
  const exact = mainProfits * mainPercent + upperProfits * upperPercent;
  return { mainProfits, upperProfits, mainPercent, upperPercent, contribution: Math.floor(exact / 100) };
}

export interface Class2Estimate {
  /** False in the years Class 2 is voluntary: the estimate adds nothing then. */
  payable: boolean;
  contribution: number;
}

/**
 * Class 2 for a whole year of self-employment: the weekly amount × the year's weeks, when the
 * year makes it compulsory and the profit reaches the point it becomes payable.
 */
export function class2(profit: number, rates: Pick<TaxYearRates, 'class2'>): Class2Estimate {
  const { voluntary, weeklyPence, weeks, payableFromProfits } = rates.class2;
  if (voluntary || weeklyPence === null || payableFromProfits === null || profit < payableFromProfits) return { payable: false, contribution: 0 };
  return { payable: true, contribution: weeklyPence * weeks };
}
