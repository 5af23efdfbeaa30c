// Everything the tax-year view shows, from the device's records for one tax year. Pure: the
// screen reads the records, this adds them up, so every figure is testable without a browser.
//
// How each figure is made (the view says the important parts in words):
// - Turnover: the sum of the year's days' saved totals. A day's pay is fixed when it is saved
//   and is never re-priced here.
// - Costs: each occurrence inside the year of an expense the driver paid and of a deduction a
//   courier took (van hire, fees), a repeat no later than today (core/deductions occurrences).
//   Both count by what they are for (their category: its SA103 box and MTD field), so van hire
//   from the courier is treated exactly as van hire paid directly. A deduction saved before it
//   could say what it is for counts as "other" (box 30), as it always did.
// - A vehicle running cost (fuel, repairs, insurance, tax, hire), paid or deducted, with a
//   flat-rate vehicle is covered by the mileage rate (shown, never counted); with an actual-cost
//   vehicle it counts × that vehicle's business-use share from the log (one round-half-up per
//   vehicle and category, box 20); with no vehicle it counts in full, and while a flat-rate
//   vehicle exists the year warns about it (it may be that vehicle's, claimed twice).
// - Profit: turnover less the allowed costs and the flat-rate mileage claim, or turnover less the
//   trading allowance, whichever is lower (the allowance replaces every expense).
// - Tax: Income Tax (the driver's region) + Class 4 (+ Class 2 when compulsory) on that profit,
//   as if it were the driver's only income.
// - Quarters: the MTD updates are cumulative, so each quarter's figures run from 6 April to the
//   quarter's last day, worked the same way (an actual-cost share from the log up to that day).
import { deductedBetween, occurrences as occurrencesOf } from '@/core/deductions/deductions';
import type { CourierContent, DeductionContent, EntryContent, ExpenseCategory, ExpenseContent, MileageContent, VehicleContent } from '@/sync/types';
import { expenseCategory, MTD_EXPENSE_FIELDS, type MtdExpenseField, type Sa103Box } from './expense-categories';
import { incomeTax, type IncomeTaxEstimate } from './income-tax';
import { mileageClaim, type MileageClaim } from './mileage-claim';
import { mtdOutlook, type MtdYear } from './mtd';
import { class2, class4, type Class2Estimate, type Class4Estimate } from './national-insurance';
import { costTreatment, shareRunningCosts, type CostTreatment } from './running-costs';
import { vehicleMethodFigures, type VehicleMethodFigures } from './vehicle-methods';
import { consolidatedExpensesAllowed, mtdQuarters, type MtdQuarters, type Quarter } from '@/core/mtd/quarters';
import {
  currentTaxYear,
  selfAssessmentDates,
  taxYearBounds,
  taxYearOf,
  taxYearRates,
  type IncomeTaxRegion,
  type SelfAssessmentDates,
  type TaxYearLabel,
} from './tax-year';

type Stored<T> = T & { id: string; createdAt?: string; updatedAt?: string; deleted?: 0 | 1 };

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

/** What a deduction that does not say what it is for counts as (see the top of this file). */
export const UNSAID_DEDUCTION_CATEGORY: ExpenseCategory = 'other';
/** The flat-rate mileage claim is a car, van and travel expense (SA103F box 20). */
export const MILEAGE_BOX: Sa103Box = 20;
export const MILEAGE_MTD_FIELD: MtdExpenseField = 'carVanTravelExpenses';

export interface CourierTotals {
  courierId: string;
  name: string;
  days: number;
  turnover: number;
  /** Everything the courier took off, whatever of it counts as a cost. */
  deductions: number;
}

/** Where a cost comes from: an expense the driver paid, or a deduction a courier took. */
export type CostSource = 'expense' | 'deduction';

export interface CostOccurrence {
  source: CostSource;
  /** The expense's or the deduction's id. */
  recordId: string;
  date: string;
  /** What it counts as; a deduction that does not say is UNSAID_DEDUCTION_CATEGORY. */
  category: ExpenseCategory;
  /** A deduction saved before it could say what it is for. */
  unsaid: boolean;
  /** The expense's note, or the deduction's name on the statement. */
  note: string;
  /** A deduction's courier; an expense's when it names one. */
  courierId: string | null;
  vehicleId: string | null;
  /** What was paid (or taken). */
  paid: number;
  /** What counts: all of it, its business share, or nothing (covered by the mileage rate). */
  allowed: number;
  treatment: CostTreatment;
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
  /** The part of `paid` couriers took off as deductions. */
  deducted: number;
  /** The part of `deducted` from deductions that do not say what they are for. */
  unsaid: number;
}

/** An actual-cost vehicle's year: its running costs (paid and deducted) and the part the log allows. */
export interface ActualCostVehicle {
  vehicleId: string;
  name: string;
  businessMiles: number;
  totalMiles: number;
  costs: number;
  allowed: number;
}

/**
 * Vehicle running costs linked to no vehicle, counted in full, while a flat-rate vehicle exists:
 * the flat rate already covers that vehicle's, so they may be claimed twice.
 */
export interface UnlinkedVehicleCosts {
  /** The flat-rate vehicles that make it matter. */
  flatRateVehicles: { vehicleId: string; name: string }[];
  /** What they add up to in the period. */
  paid: number;
  /** Per category, largest first. */
  byCategory: { category: ExpenseCategory; label: string; paid: number }[];
  /** The records behind them, each once (a repeating one has several occurrences). */
  records: { source: CostSource; recordId: string }[];
}

/** Figures from 6 April to a day (the year's end, or a quarter's). */
export interface RunningTotals {
  turnover: number;
  couriers: CourierTotals[];
  /** Everything couriers took off, counted as a cost or not. */
  deducted: number;
  costs: {
    /** Expenses and deductions, oldest first. */
    occurrences: CostOccurrence[];
    byCategory: CategoryTotals[];
    /** Every cost that counts (expenses and deductions), the mileage claim aside. */
    allowed: number;
    coveredByMileage: number;
    actualCostVehicles: ActualCostVehicle[];
    /** Null when there is nothing to warn about. */
    unlinked: UnlinkedVehicleCosts | null;
    /** Deductions that do not say what they are for: their total and how many there are. */
    unsaid: { paid: number; deductions: number };
  };
  mileage: MileageClaim;
  /** Everything allowable (costs and the mileage claim) by MTD field. */
  byMtdField: Record<MtdExpenseField, number>;
  /** Allowed costs + mileage claim. */
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
  /** Both methods' figures for each vehicle whose method is still open this year. */
  vehicleMethods: VehicleMethodFigures[];
  /** Whether this year's turnover is below the simplified-update limit (totals only). */
  simplifiedUpdates: boolean;
  /** The quarters the driver elected; `quarters` follow it (none for a year not in the data). */
  election: MtdQuarters;
  quarters: QuarterTotals[];
}

const live = <T extends { deleted?: 0 | 1 }>(records: readonly T[]): T[] => records.filter((record) => record.deleted !== 1);
const minDay = (a: string, b: string) => (a < b ? a : b);

function emptyFields(): Record<MtdExpenseField, number> {
  return Object.fromEntries(MTD_EXPENSE_FIELDS.map(({ field }) => [field, 0])) as Record<MtdExpenseField, number>;
}

/**
 * The figures from `from` (6 April, or 1 April for calendar quarters) to `until`, repeats
 * expanded no later than `today`. The mileage rates are `year`'s.
 */
export function runningTotals(records: TaxRecords, year: TaxYearLabel, until: string, today: string, from = taxYearBounds(year).from): RunningTotals {
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

  const occurrences: CostOccurrence[] = [];
  const add = (cost: Omit<CostOccurrence, 'date' | 'allowed' | 'treatment'>, dates: readonly string[]) => {
    const treatment = costTreatment(cost.category, cost.vehicleId ? vehicles.get(cost.vehicleId) : undefined);
    for (const date of dates) occurrences.push({ ...cost, date, allowed: treatment === 'full' ? cost.paid : 0, treatment });
  };
  for (const expense of live(records.expenses)) {
    const last = expense.repeat === 'once' ? until : repeatsUntil;
    const dates = occurrencesOf({ repeat: expense.repeat, from: expense.date, to: expense.repeatUntil }, from, last);
    add({ source: 'expense', recordId: expense.id, category: expense.category, unsaid: false, note: expense.note, courierId: expense.courierId, vehicleId: expense.vehicleId, paid: expense.amount }, dates);
  }
  for (const deduction of deductions) {
    // Saved before deductions said what they were for: counted as "other", as it always was.
    const purpose = deduction.purpose ?? null;
    add(
      {
        source: 'deduction',
        recordId: deduction.id,
        category: purpose ?? UNSAID_DEDUCTION_CATEGORY,
        unsaid: purpose === null,
        note: deduction.label,
        courierId: deduction.courierId,
        vehicleId: deduction.vehicleId ?? null,
        paid: deduction.amount,
      },
      occurrencesOf(deduction, from, repeatsUntil),
    );
  }
  occurrences.sort((a, b) => a.date.localeCompare(b.date) || a.source.localeCompare(b.source) || a.recordId.localeCompare(b.recordId));

  // Actual-cost running costs, paid or deducted: one share per vehicle and category.
  const actualCostVehicles: ActualCostVehicle[] = [];
  for (const vehicle of records.vehicles.filter((v) => v.method === 'actualCosts')) {
    const miles = logged.get(vehicle.id) ?? { businessMiles: 0, totalMiles: 0 };
    const own = occurrences.filter((o) => o.treatment === 'businessShare' && o.vehicleId === vehicle.id);
    if (own.length === 0 && miles.totalMiles === 0) continue;
    actualCostVehicles.push({
      vehicleId: vehicle.id,
      name: vehicle.name,
      businessMiles: miles.businessMiles,
      totalMiles: miles.totalMiles,
      costs: own.reduce((sum, o) => sum + o.paid, 0),
      allowed: shareRunningCosts(own, miles),
    });
  }

  const byCategory: CategoryTotals[] = [];
  for (const occurrence of occurrences) {
    let line = byCategory.find((c) => c.category === occurrence.category);
    if (!line) {
      const info = expenseCategory(occurrence.category);
      line = { category: info.id, label: info.label, box: info.box, mtdField: info.mtdField, paid: 0, allowed: 0, coveredByMileage: 0, deducted: 0, unsaid: 0 };
      byCategory.push(line);
    }
    line.paid += occurrence.paid;
    line.allowed += occurrence.allowed;
    if (occurrence.treatment === 'coveredByMileage') line.coveredByMileage += occurrence.paid;
    if (occurrence.source === 'deduction') line.deducted += occurrence.paid;
    if (occurrence.unsaid) line.unsaid += occurrence.paid;
  }
  byCategory.sort((a, b) => b.allowed - a.allowed || b.paid - a.paid || a.label.localeCompare(b.label));
  const allowedCosts = byCategory.reduce((sum, c) => sum + c.allowed, 0);

  const byMtdField = emptyFields();
  for (const category of byCategory) byMtdField[category.mtdField] += category.allowed;
  byMtdField[MILEAGE_MTD_FIELD] += mileage.claimPence;
  const allowable = allowedCosts + mileage.claimPence;
  const unsaid = occurrences.filter((o) => o.unsaid);

  return {
    turnover,
    couriers,
    deducted,
    costs: {
      occurrences,
      byCategory,
      allowed: allowedCosts,
      coveredByMileage: byCategory.reduce((sum, c) => sum + c.coveredByMileage, 0),
      actualCostVehicles,
      unlinked: unlinkedVehicleCosts(occurrences, records.vehicles, mileage),
      unsaid: { paid: unsaid.reduce((sum, o) => sum + o.paid, 0), deductions: new Set(unsaid.map((o) => o.recordId)).size },
    },
    mileage,
    byMtdField,
    allowable,
    profit: turnover - allowable,
  };
}

/**
 * Running costs counted in full for want of a vehicle, while a flat-rate vehicle is in use (a
 * live one, or one with business miles in the period): null when there are none or no such
 * vehicle.
 */
function unlinkedVehicleCosts(occurrences: readonly CostOccurrence[], vehicles: TaxRecords['vehicles'], mileage: MileageClaim): UnlinkedVehicleCosts | null {
  const driven = new Set(mileage.vehicles.filter((v) => v.businessMiles > 0).map((v) => v.vehicleId));
  const flatRate = vehicles.filter((v) => v.method === 'flatRate' && (v.deleted !== 1 || driven.has(v.id)));
  const unlinked = occurrences.filter((o) => o.treatment === 'full' && expenseCategory(o.category).runningCost);
  if (flatRate.length === 0 || unlinked.length === 0) return null;
  const byCategory = new Map<ExpenseCategory, number>();
  for (const o of unlinked) byCategory.set(o.category, (byCategory.get(o.category) ?? 0) + o.paid);
  const records = new Map(unlinked.map((o) => [`${o.source}:${o.recordId}`, { source: o.source, recordId: o.recordId }]));
  return {
    flatRateVehicles: flatRate.map((v) => ({ vehicleId: v.id, name: v.name })),
    paid: unlinked.reduce((sum, o) => sum + o.paid, 0),
    byCategory: [...byCategory]
      .map(([category, paid]) => ({ category, label: expenseCategory(category).label, paid }))
      .sort((a, b) => b.paid - a.paid || a.label.localeCompare(b.label)),
    records: [...records.values()],
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

export function taxSummary(records: TaxRecords, year: TaxYearLabel, today: string, region: IncomeTaxRegion, election: MtdQuarters = 'standard'): TaxSummary {
  const { from, to } = taxYearBounds(year);
  const { rates, from: ratesFrom, assumed } = taxYearRates(year);
  const quarters = mtdQuarters(year, election);
  // The year's and each quarter's figures count only the days and miles from the first quarter's
  // start (6 April, or 1 April for calendar quarters) to the year's end: picked out of years of
  // records once, not once per figure (issue 30). Expenses and deductions may repeat into the
  // year from before it, so they stay whole.
  const start = quarters.reduce((first, quarter) => minDay(first, quarter.periodStart), from);
  const within = <T extends { date: string; deleted?: 0 | 1 }>(list: readonly T[]) => live(list).filter((record) => record.date >= start && record.date <= to);
  const yearRecords: TaxRecords = { ...records, entries: within(records.entries), mileage: within(records.mileage) };
  const totals = runningTotals(yearRecords, year, to, today);
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
    vehicleMethods: vehicleMethodFigures(records, year, totals.costs.occurrences, totals.mileage),
    simplifiedUpdates: consolidatedExpensesAllowed(year, totals.turnover),
    election,
    quarters: quarters.map((quarter) => ({
      ...quarter,
      status: quarter.to < today ? 'ended' : quarter.from > today ? 'notStarted' : 'current',
      totals: quarter.to === to && quarter.periodStart === from ? totals : runningTotals(yearRecords, year, quarter.to, today, quarter.periodStart),
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
