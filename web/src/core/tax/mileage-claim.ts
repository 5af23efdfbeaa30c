// The mileage claim of a tax year, exact in pence. Flat-rate vehicles claim HMRC's pence per
// business mile, the higher rate for each vehicle's first miles of the year (10,000 for cars and
// vans), the lower rate after; a day that crosses the break is split inside the day. Actual-cost
// vehicles claim nothing per mile: the log gives their business-use share of the costs.
import type { MileageContent, VehicleContent } from '@/sync/types';
import { taxYearBounds, taxYearRates, type TaxYearLabel } from './tax-year';

type Identified<T> = T & { id: string; createdAt?: string };

export interface MileageClaimLine {
  recordId: string;
  date: string;
  vehicleId: string;
  businessMiles: number;
  /** Miles paid at the higher rate and at the lower rate. */
  milesAtFirstRate: number;
  milesAtAfterRate: number;
  claimPence: number;
}

export interface VehicleMileage {
  vehicleId: string;
  name: string;
  type: VehicleContent['type'];
  method: VehicleContent['method'];
  businessMiles: number;
  commuteMiles: number;
  /** With odometers: end − start; otherwise business + commute (see milesOf). */
  totalMiles: number;
  /** Flat rate only: the claim of the year's business miles. 0 for actual costs. */
  claimPence: number;
  /** Flat rate only: each record's share of the claim, in date order. */
  lines: MileageClaimLine[];
}

export interface MileageClaim {
  vehicles: VehicleMileage[];
  /** The flat-rate claim of every vehicle. */
  claimPence: number;
  /** Business miles of every vehicle (flat rate and actual costs). */
  businessMiles: number;
}

/** A record's total miles: the odometer span when it was read, else the miles typed. */
export function milesOf(record: Pick<MileageContent, 'odometerStart' | 'odometerEnd' | 'businessMiles' | 'commuteMiles'>): number {
  if (record.odometerStart !== null && record.odometerEnd !== null) return record.odometerEnd - record.odometerStart;
  return record.businessMiles + record.commuteMiles;
}

/** Date order, then the order the records were made in, so the split day is always the same one. */
function byDate(a: Identified<MileageContent>, b: Identified<MileageContent>): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  const made = (a.createdAt ?? '').localeCompare(b.createdAt ?? '');
  return made !== 0 ? made : a.id.localeCompare(b.id);
}

/**
 * The claim of `label` from the mileage log. Pass every vehicle the log names, deleted ones
 * included (a deleted vehicle's miles were still driven); records of vehicles not passed, and
 * records outside the year, are left out.
 */
export function mileageClaim(
  records: readonly Identified<MileageContent>[],
  vehicles: readonly Identified<VehicleContent>[],
  label: TaxYearLabel,
): MileageClaim {
  const { from, to } = taxYearBounds(label);
  const { rates } = taxYearRates(label);
  const inYear = records.filter((record) => record.date >= from && record.date <= to).sort(byDate);
  const result: VehicleMileage[] = vehicles.map((vehicle) => {
    const own = inYear.filter((record) => record.vehicleId === vehicle.id);
    const rate = vehicle.method === 'flatRate' ? rates.mileage[vehicle.type] : null;
    let before = 0;
    const lines: MileageClaimLine[] = [];
    for (const record of own) {
      if (!rate) break;
      const first = Math.min(record.businessMiles, Math.max(0, rate.thresholdMiles - before));
      const after = record.businessMiles - first;
      before += record.businessMiles;
      lines.push({
        recordId: record.id,
        date: record.date,
        vehicleId: vehicle.id,
        businessMiles: record.businessMiles,
        milesAtFirstRate: first,
        milesAtAfterRate: after,
        claimPence: first * rate.firstMilesPence + after * rate.afterPence,
      });
    }
    return {
      vehicleId: vehicle.id,
      name: vehicle.name,
      type: vehicle.type,
      method: vehicle.method,
      businessMiles: own.reduce((sum, record) => sum + record.businessMiles, 0),
      commuteMiles: own.reduce((sum, record) => sum + record.commuteMiles, 0),
      totalMiles: own.reduce((sum, record) => sum + milesOf(record), 0),
      claimPence: lines.reduce((sum, line) => sum + line.claimPence, 0),
      lines,
    };
  });
  return {
    vehicles: result,
    claimPence: result.reduce((sum, vehicle) => sum + vehicle.claimPence, 0),
    businessMiles: result.reduce((sum, vehicle) => sum + vehicle.businessMiles, 0),
  };
}

/**
 * An actual-cost vehicle's allowable part of `costPence`: cost × business ÷ total miles, rounded
 * half up once. No log (0 total miles) allows nothing: the share must be backed by the log.
 */
export function businessShareOf(costPence: number, vehicle: Pick<VehicleMileage, 'businessMiles' | 'totalMiles'>): number {
  if (vehicle.totalMiles <= 0) return 0;
  return Math.floor((costPence * vehicle.businessMiles * 2 + vehicle.totalMiles) / (vehicle.totalMiles * 2));
}
