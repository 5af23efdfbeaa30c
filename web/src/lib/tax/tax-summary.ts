// Everything the tax-year view shows, from the device's records for one tax year. Pure: the
// screen reads the records, this adds them up, so every figure is testable without a browser.
//
// How each figure is made (the view says the important parts in words):
// - Turnover: the sum of the year's days' saved totals. A day's pay is fixed when it is saved
//   and is never re-priced here.
// - Courier deductions (van hire, fees the courier kept back): business costs, each charge on
//   its date inside the year and no later than today (lib/deductions.ts occurrences). They
//   land in SA103 box 30 / MTD otherExpenses: the app does not know what each one was for.
// - Expenses: each occurrence of a once/weekly/monthly expense inside the year, a repeat no
//   later than today. A vehicle running cost (fuel, repairs…) with a flat-rate vehicle is
//   covered by the mileage rate (shown, not counted); with an actual-cost vehicle it counts ×
//   that vehicle's business-use share from the log (one round-half-up per vehicle and category);
//   with no vehicle it counts in full.
// - Profit: turnover less all of the above and the flat-rate mileage claim, or turnover less the
//   trading allowance, whichever is lower (the allowance replaces every expense).
// - Tax: Income Tax (the driver's region) + Class 4 (+ Class 2 when compulsory) on that profit,
//   as if it were the driver's only income.
// - Quarters: the MTD updates are cumulative, so each quarter's figures run from 6 April to the
//   quarter's last day, worked the same way (an actual-cost share from the log up to that day).
import { deductedBetween, occurrences } from '@/lib/deductions';
import type { CourierContent, DeductionContent, EntryContent, ExpenseCategory, ExpenseContent, MileageContent, VehicleContent } from '@/sync/types';
import { expenseCategory, MTD_EXPENSE_FIELDS, type MtdExpenseField, type Sa103Box } from './expense-categories';
import { incomeTax, type IncomeTaxEstimate } from './income-tax';
import { businessShareOf, mileageClaim, type MileageClaim } from './mileage-claim';
import { mtdOutlook, type MtdYear } from './mtd';
import { class2, class4, type Class2Estimate, type Class4Estimate } from './national-insurance';
import {
  currentTaxYear,
  mtdRules,
  quarters as quartersOf,
  selfAssessmentDates,
  taxYearBounds,
  taxYearOf,
  taxYearRates,
  type IncomeTaxRegion,
  type Quarter,
  type SelfAssessmentDates,
  type TaxYearLabel,
} from './tax-year';

type Stored<T> = T & { id: string; createdAt?: string; deleted?: 0 | 1 };

/** The device's records, as read from its store (tombstones are left out here). */
export interface TaxRecords {
  entries: readonly Stored<Pick<EntryContent, 'date' | 'total' | 'courierId' | 'stops'>>[];
  /** Every courier the days name, deleted ones included (their days still count). */
  couriers: readonly Stored<Pick<CourierContent, 'name'>>[];
  deductions: readonly Stored<DeductionContent>[];
  expenses: readonly Stored<ExpenseContent>[];
  /** Every vehicle, deleted ones included (its miles were still driven). */
  vehicles: readonly Stored<VehicleContent>[];
  mileage: readonly Stored<MileageContent>[];
}

/** Where courier deductions land (see the top of this file). */
export const DEDUCTIONS_BOX: Sa103Box = 30;
export const DEDUCTIONS_MTD_FIELD: MtdExpenseField = 'otherExpenses';
/** The flat-rate mileage claim is a car, van and travel expense (SA103F box 20). */
export const MILEAGE_BOX: Sa103Box = 20;
export const MILEAGE_MTD_FIELD: MtdExpenseField = 'carVanTravelExpenses';

export interface CourierTotals {
  courierId: string;
  name: string;
  days: number;
  turnover: number;
  deductions: number;
}

/** How an expense occurrence counts. */
export type ExpenseTreatment = 'full' | 'businessShare' | 'coveredByMileage';

export interface ExpenseOccurrence {
  expenseId: string;
  date: string;
  category: ExpenseCategory;
  note: string;
  vehicleId: string | null;
  /** What was paid. */
  paid: number;
  /** What counts: all of it, its business share, or nothing (covered by the mileage rate). */
  allowed: number;
  treatment: ExpenseTreatment;
}

export interface CategoryTotals {
  category: ExpenseCategory;
  label: string;
  box: Sa103Box;
  mtdField: MtdExpenseField;
  paid: number;
  allowed: number;
  /** Running costs of flat-rate vehicles: paid, shown, not counted. */
  coveredByMileage: number;
}

/** An actual-cost vehicle's year: its running costs and the part the log allows. */
export interface ActualCostVehicle {
  vehicleId: string;
  name: string;
  businessMiles: number;
  totalMiles: number;
  costs: number;
  allowed: number;
}

/** Figures from 6 April to a day (the year's end, or a quarter's). */
export interface RunningTotals {
  turnover: number;
  couriers: CourierTotals[];
  deductions: number;
  expenses: {
    occurrences: ExpenseOccurrence[];
    byCategory: CategoryTotals[];
    allowed: number;
    coveredByMileage: number;
    actualCostVehicles: ActualCostVehicle[];
  };
  mileage: MileageClaim;
  /** Everything allowable (deductions, expenses, mileage claim) by MTD field. */
  byMtdField: Record<MtdExpenseField, number>;
  /** Deductions + allowed expenses + mileage claim. */
  allowable: number;
  /** Turnover less `allowable` (may be a loss). */
  profit: number;
}

export type QuarterStatus = 'ended' | 'current' | 'notStarted';

export interface QuarterTotals extends Quarter {
  status: QuarterStatus;
  /** Cumulative from 6 April to the quarter's last day. */
  totals: RunningTotals;
}

export interface ProfitChoice {
  /** Turnover less deductions, expenses and the mileage claim. */
  withExpenses: number;
  /** Turnover less the trading allowance (at most the turnover). */
  withAllowance: number;
  allowance: number;
  better: 'expenses' | 'allowance';
  /** The lower of the two, never below 0 for tax. */
  taxable: number;
}

export interface TaxSummary {
  year: TaxYearLabel;
  from: string;
  to: string;
  /** The last day counted for repeating items: the earlier of today and the year's end. */
  through: string;
  rates: { from: TaxYearLabel; assumed: boolean };
  region: IncomeTaxRegion;
  totals: RunningTotals;
  profit: ProfitChoice;
  incomeTax: IncomeTaxEstimate;
  class4: Class4Estimate;
  class2: Class2Estimate;
  /** Income Tax + Class 4 + Class 2: the suggested amount to set aside. */
  setAside: number;
  dates: SelfAssessmentDates;
  /** Payments on account towards the next year, each half of Income Tax + Class 4; null when below the threshold. */
  paymentsOnAccount: { each: number; dates: [string, string] } | null;
  /** MTD this tax year (today's) and the two coming ones. */
  mtd: MtdYear[];
  /** Whether this year's turnover is below the simplified-update limit (totals only). */
  simplifiedUpdates: boolean;
  quarters: QuarterTotals[];
}

const live = <T extends { deleted?: 0 | 1 }>(records: readonly T[]): T[] => records.filter((record) => record.deleted !== 1);
const minDay = (a: string, b: string) => (a < b ? a : b);

/**
 * Splits `total` over parts in proportion to `weights`, in whole pence that add up to it
 * exactly (largest remainder first, earlier parts first on a tie), so a CSV's rows sum to the
 * figure the screen shows.
 */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return weights.map(() => 0);
  const parts = weights.map((weight) => Math.floor((total * weight) / sum));
  const remainders = weights.map((weight, index) => ({ index, rest: (total * weight) % sum }));
  let left = total - parts.reduce((a, b) => a + b, 0);
  for (const { index } of remainders.sort((a, b) => b.rest - a.rest || a.index - b.index)) {
    if (left <= 0) break;
    parts[index] = (parts[index] as number) + 1;
    left -= 1;
  }
  return parts;
}

function emptyFields(): Record<MtdExpenseField, number> {
  return Object.fromEntries(MTD_EXPENSE_FIELDS.map(({ field }) => [field, 0])) as Record<MtdExpenseField, number>;
}

/** The figures from `from` (6 April) to `until`, repeats expanded no later than `today`. */
export function runningTotals(records: TaxRecords, year: TaxYearLabel, until: string, today: string): RunningTotals {
  const { from } = taxYearBounds(year);
  const repeatsUntil = minDay(until, today);

  const entries = live(records.entries).filter((entry) => entry.date >= from && entry.date <= until);
  const names = new Map(records.couriers.map((courier) => [courier.id, courier.name]));
  const deductions = live(records.deductions);
  const courierIds = [...new Set([...entries.map((entry) => entry.courierId), ...deductions.map((d) => d.courierId)])];
  const couriers: CourierTotals[] = courierIds
    .map((courierId) => {
      const days = entries.filter((entry) => entry.courierId === courierId);
      const own = deductions.filter((d) => d.courierId === courierId);
      return {
        courierId,
        name: names.get(courierId) ?? 'Removed courier',
        // Days worked: a day's shifts (or one logged twice) are one day.
        days: new Set(days.map((entry) => entry.date)).size,
        turnover: days.reduce((sum, entry) => sum + entry.total, 0),
        deductions: deductedBetween(own, from, repeatsUntil),
      };
    })
    .filter((courier) => courier.days > 0 || courier.deductions > 0)
    .sort((a, b) => b.turnover - a.turnover || a.name.localeCompare(b.name));
  const turnover = couriers.reduce((sum, courier) => sum + courier.turnover, 0);
  const deducted = couriers.reduce((sum, courier) => sum + courier.deductions, 0);

  const mileageRecords = live(records.mileage).filter((record) => record.date >= from && record.date <= until);
  const mileage = mileageClaim(mileageRecords, records.vehicles, year);
  const vehicles = new Map(records.vehicles.map((vehicle) => [vehicle.id, vehicle]));
  const logged = new Map(mileage.vehicles.map((vehicle) => [vehicle.vehicleId, vehicle]));

  const expenseOccurrences: ExpenseOccurrence[] = [];
  for (const expense of live(records.expenses)) {
    const last = expense.repeat === 'once' ? until : repeatsUntil;
    const info = expenseCategory(expense.category);
    const vehicle = expense.vehicleId ? vehicles.get(expense.vehicleId) : undefined;
    const treatment: ExpenseTreatment = !info.runningCost || !vehicle ? 'full' : vehicle.method === 'flatRate' ? 'coveredByMileage' : 'businessShare';
    for (const date of occurrences({ repeat: expense.repeat, from: expense.date, to: expense.repeatUntil }, from, last)) {
      expenseOccurrences.push({
        expenseId: expense.id,
        date,
        category: expense.category,
        note: expense.note,
        vehicleId: expense.vehicleId,
        paid: expense.amount,
        allowed: treatment === 'full' ? expense.amount : 0,
        treatment,
      });
    }
  }
  expenseOccurrences.sort((a, b) => a.date.localeCompare(b.date) || a.expenseId.localeCompare(b.expenseId));

  // Actual-cost running costs: one share per vehicle and category, spread back over its rows.
  const actualCostVehicles: ActualCostVehicle[] = [];
  for (const vehicle of records.vehicles.filter((v) => v.method === 'actualCosts')) {
    const miles = logged.get(vehicle.id) ?? { businessMiles: 0, totalMiles: 0 };
    const own = expenseOccurrences.filter((o) => o.treatment === 'businessShare' && o.vehicleId === vehicle.id);
    if (own.length === 0 && miles.totalMiles === 0) continue;
    let allowed = 0;
    for (const category of new Set(own.map((o) => o.category))) {
      const rows = own.filter((o) => o.category === category);
      const share = businessShareOf(
        rows.reduce((sum, o) => sum + o.paid, 0),
        miles,
      );
      apportion(share, rows.map((o) => o.paid)).forEach((part, index) => {
        (rows[index] as ExpenseOccurrence).allowed = part;
      });
      allowed += share;
    }
    actualCostVehicles.push({
      vehicleId: vehicle.id,
      name: vehicle.name,
      businessMiles: miles.businessMiles,
      totalMiles: miles.totalMiles,
      costs: own.reduce((sum, o) => sum + o.paid, 0),
      allowed,
    });
  }

  const byCategory: CategoryTotals[] = [];
  for (const occurrence of expenseOccurrences) {
    let line = byCategory.find((c) => c.category === occurrence.category);
    if (!line) {
      const info = expenseCategory(occurrence.category);
      line = { category: info.id, label: info.label, box: info.box, mtdField: info.mtdField, paid: 0, allowed: 0, coveredByMileage: 0 };
      byCategory.push(line);
    }
    line.paid += occurrence.paid;
    line.allowed += occurrence.allowed;
    if (occurrence.treatment === 'coveredByMileage') line.coveredByMileage += occurrence.paid;
  }
  byCategory.sort((a, b) => b.allowed - a.allowed || b.paid - a.paid || a.label.localeCompare(b.label));
  const allowedExpenses = byCategory.reduce((sum, c) => sum + c.allowed, 0);

  const byMtdField = emptyFields();
  for (const category of byCategory) byMtdField[category.mtdField] += category.allowed;
  byMtdField[DEDUCTIONS_MTD_FIELD] += deducted;
  byMtdField[MILEAGE_MTD_FIELD] += mileage.claimPence;
  const allowable = deducted + allowedExpenses + mileage.claimPence;

  return {
    turnover,
    couriers,
    deductions: deducted,
    expenses: {
      occurrences: expenseOccurrences,
      byCategory,
      allowed: allowedExpenses,
      coveredByMileage: byCategory.reduce((sum, c) => sum + c.coveredByMileage, 0),
      actualCostVehicles,
    },
    mileage,
    byMtdField,
    allowable,
    profit: turnover - allowable,
  };
}

/** Expenses or the trading allowance, whichever leaves the lower profit (expenses on a tie: they need no claim). */
export function chooseProfit(turnover: number, allowable: number, tradingAllowance: number): ProfitChoice {
  const withExpenses = turnover - allowable;
  const allowance = Math.min(tradingAllowance, Math.max(0, turnover));
  const withAllowance = turnover - allowance;
  const better = withAllowance < withExpenses ? 'allowance' : 'expenses';
  return { withExpenses, withAllowance, allowance, better, taxable: Math.max(0, Math.min(withExpenses, withAllowance)) };
}

/** Gross turnover (the sum of the days' totals) of each tax year: MTD's qualifying income. */
export function turnoverByYear(entries: TaxRecords['entries']): (year: TaxYearLabel) => number {
  const byYear = new Map<TaxYearLabel, number>();
  for (const entry of live(entries)) {
    const year = taxYearOf(entry.date);
    byYear.set(year, (byYear.get(year) ?? 0) + entry.total);
  }
  return (year) => byYear.get(year) ?? 0;
}

export function taxSummary(records: TaxRecords, year: TaxYearLabel, today: string, region: IncomeTaxRegion): TaxSummary {
  const { from, to } = taxYearBounds(year);
  const { rates, from: ratesFrom, assumed } = taxYearRates(year);
  const totals = runningTotals(records, year, to, today);
  const profit = chooseProfit(totals.turnover, totals.allowable, rates.tradingAllowance);
  const tax = incomeTax(profit.taxable, rates, region);
  const four = class4(profit.taxable, rates);
  const two = class2(profit.taxable, rates);
  const dates = selfAssessmentDates(year);
  // GOV.UK "Understanding your Self Assessment tax bill": no payments on account when the bill
  // (Income Tax and Class 4; Class 2 is not part of them) is under £1,000.
  const towardsNext = tax.tax + four.contribution;
  const paymentsOnAccount = towardsNext >= rates.paymentsOnAccountFrom ? { each: Math.floor(towardsNext / 2), dates: dates.nextPaymentsOnAccount } : null;
  return {
    year,
    from,
    to,
    through: minDay(to, today),
    rates: { from: ratesFrom, assumed },
    region,
    totals,
    profit,
    incomeTax: tax,
    class4: four,
    class2: two,
    setAside: tax.tax + four.contribution + two.contribution,
    dates,
    paymentsOnAccount,
    mtd: mtdOutlook(currentTaxYear(today), turnoverByYear(records.entries)),
    simplifiedUpdates: totals.turnover < mtdRules.simplifiedUpdatesBelow,
    quarters: quartersOf(year).map((quarter) => ({
      ...quarter,
      status: quarter.to < today ? 'ended' : quarter.from > today ? 'notStarted' : 'current',
      totals: quarter.to === to ? totals : runningTotals(records, year, quarter.to, today),
    })),
  };
}

/** The years a driver can open: every year with a record, and the current one, newest first. */
export function yearsWithRecords(records: Pick<TaxRecords, 'entries' | 'expenses' | 'mileage' | 'deductions'>, today: string): TaxYearLabel[] {
  const years = new Set<TaxYearLabel>([currentTaxYear(today)]);
  for (const { date } of [...live(records.entries), ...live(records.expenses), ...live(records.mileage)]) years.add(taxYearOf(date));
  for (const deduction of live(records.deductions)) years.add(taxYearOf(deduction.from));
  // A record dated in a future year (a typo) does not open a year that has not started.
  return [...years].filter((year) => year <= currentTaxYear(today)).sort().reverse();
}
