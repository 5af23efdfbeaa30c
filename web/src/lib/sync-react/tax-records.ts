// The records the tax year is made from, read from the device's store: the tax year page and
// the dashboard's reminders (changes since an update was sent) both read them, so they live
// here rather than in either feature. Works offline and follows every change.
import { readPaySetup } from './use-pay-setup';
import { readVehicles } from './use-vehicles';
import type { TaxRecords } from '@/core/tax/tax-summary';
import type { LocalDb } from '@/sync/db';
import type { LocalCourier, LocalEntry } from '@/sync/types';

/** The tax records as the device holds them: whole entries and couriers (statement checks read their counts and pay periods). */
export interface DeviceTaxRecords extends TaxRecords {
  entries: readonly LocalEntry[];
  couriers: readonly LocalCourier[];
}

export async function readTaxRecords(db: LocalDb): Promise<DeviceTaxRecords> {
  const [entries, pay, allCouriers, expenses, vehicles, mileage] = await Promise.all([
    db.entries.toArray(),
    readPaySetup(db),
    db.couriers.toArray(),
    db.expenses.where('deleted').equals(0).toArray(),
    // Deleted vehicles too: their miles were driven and their costs paid.
    readVehicles(db, true),
    db.mileage.where('deleted').equals(0).toArray(),
  ]);
  // A deleted courier's days still count and keep its name; the pay setup adds the default
  // courier before the first pull has brought it.
  const known = new Set(pay.couriers.map((courier) => courier.id));
  const couriers = [...pay.couriers, ...allCouriers.filter((courier) => !known.has(courier.id))];
  return { entries: entries.filter((entry) => entry.deleted === 0), couriers, deductions: pay.deductions, expenses, vehicles, mileage };
}
