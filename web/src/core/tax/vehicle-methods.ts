// Both ways of claiming a vehicle, side by side: HMRC's flat rate per business mile, or its
// actual running costs (paid and deducted by couriers) times the business-use share of the log.
// A vehicle's method is the driver's choice until it is fixed by its first tax year with a log
// (GOV.UK "Simplified expenses: vehicles": "Once you use the flat rates for a vehicle, you must
// continue to do so as long as you use that vehicle for your business"), so the figures are
// shown for the vehicles still open in the year shown. One function, for the tax year and for
// the Making Tax Digital updates alike.
import type { ExpenseCategory, MileageContent, VehicleContent, VehicleMethod } from '@/sync/types';
import { expenseCategory } from './expense-categories';
import { mileageClaim, type MileageClaim } from './mileage-claim';
import { shareRunningCosts } from './running-costs';
import { taxYearBounds, taxYearRates, type TaxYearLabel } from './tax-year';

type Stored<T> = T & { id: string; createdAt?: string; deleted?: 0 | 1 };

/** The records the comparison reads (a TaxRecords fits). */
export interface VehicleRecords {
  /** Every vehicle, deleted ones included. */
  vehicles: readonly Stored<VehicleContent>[];
  mileage: readonly Stored<MileageContent>[];
}

/** A cost of the year (a CostOccurrence fits). */
export interface YearCost {
  vehicleId: string | null;
  category: ExpenseCategory;
  paid: number;
}

export interface VehicleMethodFigures {
  vehicleId: string;
  name: string;
  type: VehicleContent['type'];
  /** The method it has now. */
  method: VehicleMethod;
  businessMiles: number;
  totalMiles: number;
  /** The flat rate's claim for the year's business miles; null when the type has none (a bicycle). */
  flatRate: number | null;
  /** Its running costs in the year, paid and deducted (fuel, repairs, insurance, tax, hire). */
  costs: number;
  /** Those costs × the business-use share from the log. */
  actualCosts: number;
  /** The method that claims more; 'same' when they claim the same. */
  better: VehicleMethod | 'same';
}

/**
 * The figures of both methods for each vehicle whose method is not fixed yet in `year`: no
 * (live) mileage record before the year began. Listed when the vehicle is live, or was driven
 * or paid for in the year. `costs` and `miles` are the year's (runningTotals to its last day).
 */
export function vehicleMethodFigures(records: VehicleRecords, year: TaxYearLabel, costs: readonly YearCost[], miles: MileageClaim): VehicleMethodFigures[] {
  const { from } = taxYearBounds(year);
  const { rates } = taxYearRates(year);
  const logged = records.mileage.filter((record) => record.deleted !== 1);
  const usedBefore = new Set(logged.filter((record) => record.date < from).map((record) => record.vehicleId));
  const inYear = logged.filter((record) => record.date >= from && record.date <= taxYearBounds(year).to);
  const figures: VehicleMethodFigures[] = [];
  for (const vehicle of records.vehicles) {
    if (usedBefore.has(vehicle.id)) continue;
    const driven = miles.vehicles.find((v) => v.vehicleId === vehicle.id) ?? { businessMiles: 0, totalMiles: 0 };
    const running = costs.filter((o) => o.vehicleId === vehicle.id && expenseCategory(o.category).runningCost);
    if (vehicle.deleted === 1 && driven.totalMiles === 0 && running.length === 0) continue;
    const flatRate = rates.mileage[vehicle.type] ? mileageClaim(inYear, [{ ...vehicle, method: 'flatRate' }], year).claimPence : null;
    const actualCosts = shareRunningCosts(
      running.map((o) => ({ category: o.category, paid: o.paid, allowed: 0 })),
      driven,
    );
    const best = flatRate ?? -1;
    figures.push({
      vehicleId: vehicle.id,
      name: vehicle.name,
      type: vehicle.type,
      method: vehicle.method,
      businessMiles: driven.businessMiles,
      totalMiles: driven.totalMiles,
      flatRate,
      costs: running.reduce((sum, o) => sum + o.paid, 0),
      actualCosts,
      better: best === actualCosts ? 'same' : best > actualCosts ? 'flatRate' : 'actualCosts',
    });
  }
  return figures;
}
