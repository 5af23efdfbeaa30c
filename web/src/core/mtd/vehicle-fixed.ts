// A vehicle's method fixed by a sent update. GOV.UK "Simplified expenses: vehicles": once the flat
// rate is used for a vehicle it must be kept while the vehicle is used for the business, and a
// quarterly update is where it is first used. So once an update sent (any snapshot, superseded
// or not: it reached HMRC) covers business miles or running costs of a vehicle, that is, a
// record of it is dated inside the update's cumulative period, the vehicle's method is settled
// and stays the one it has. The update that fixed it is the first one sent.
import { occurrences } from '@/core/deductions/deductions';
import { expenseCategory } from '@/core/tax/expense-categories';
import type { TaxYearLabel } from '@/core/tax/tax-year';
import type { DeductionContent, ExpenseContent, MileageContent } from '@/sync/types';
import type { SentRecord } from './sent';

type Live<T> = T & { deleted?: 0 | 1 };

/** The records that show a vehicle used (a TaxRecords fits). */
export interface VehicleUse {
  mileage: readonly Live<Pick<MileageContent, 'vehicleId' | 'date' | 'businessMiles'>>[];
  expenses: readonly Live<Pick<ExpenseContent, 'vehicleId' | 'date' | 'category' | 'repeat' | 'repeatUntil'>>[];
  deductions: readonly Live<Pick<DeductionContent, 'vehicleId' | 'purpose' | 'from' | 'to' | 'repeat'>>[];
}

export interface VehicleFix {
  year: TaxYearLabel;
  quarter: number;
  sentOn: string;
  /** The snapshot that fixed it. */
  sentId: string;
}

type Sent = Pick<SentRecord, 'id' | 'taxYear' | 'quarter' | 'periodStart' | 'periodEnd' | 'sentOn' | 'createdAt'> & { deleted?: 0 | 1 };

const runningCost = (category: ExpenseContent['category'] | null | undefined) => category !== null && category !== undefined && expenseCategory(category).runningCost;

/**
 * Whether the vehicle has business miles or a running cost (a repeating one by its charges)
 * dated from `from` to `to`, and no later than the day the update was sent: a record dated after
 * that was not in its file.
 */
export function usedBetween(vehicleId: string, use: VehicleUse, from: string, to: string, sentOn: string): boolean {
  const last = sentOn < to ? sentOn : to;
  if (use.mileage.some((m) => m.deleted !== 1 && m.vehicleId === vehicleId && m.businessMiles > 0 && m.date >= from && m.date <= last)) return true;
  const expenses = use.expenses.filter((e) => e.deleted !== 1 && e.vehicleId === vehicleId && runningCost(e.category));
  if (expenses.some((e) => occurrences({ repeat: e.repeat, from: e.date, to: e.repeatUntil }, from, last).length > 0)) return true;
  return use.deductions.some((d) => d.deleted !== 1 && d.vehicleId === vehicleId && runningCost(d.purpose) && occurrences(d, from, last).length > 0);
}

/** Each vehicle fixed by a sent update, with the first update sent that covers its use. */
export function vehicleFixes(vehicleIds: readonly string[], use: VehicleUse, sentUpdates: readonly Sent[]): Map<string, VehicleFix> {
  const sent = sentUpdates.filter((s) => s.deleted !== 1).sort((a, b) => a.sentOn.localeCompare(b.sentOn) || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  const fixes = new Map<string, VehicleFix>();
  for (const vehicleId of vehicleIds) {
    const first = sent.find((s) => usedBetween(vehicleId, use, s.periodStart, s.periodEnd, s.sentOn));
    if (first) fixes.set(vehicleId, { year: first.taxYear as TaxYearLabel, quarter: first.quarter, sentOn: first.sentOn, sentId: first.id });
  }
  return fixes;
}

/** The vehicles whose method is still open: the year's comparison (no earlier year used one) less those a sent update fixed. */
export function openVehicles<T extends { vehicleId: string }>(figures: readonly T[], fixes: ReadonlyMap<string, VehicleFix>): T[] {
  return figures.filter((vehicle) => !fixes.has(vehicle.vehicleId));
}
