// The records the tax year is made from, live from the device's store: it works offline and
// follows every change (a day saved, an expense synced from another device) at once.
import { useLiveQuery } from 'dexie-react-hooks';
import { readPaySetup } from '@/lib/sync-react/use-pay-setup';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { readVehicles } from '@/lib/sync-react/use-vehicles';
import type { TaxRecords } from '@/core/tax/tax-summary';
import type { LocalDb } from '@/sync/db';

export async function readTaxRecords(db: LocalDb): Promise<TaxRecords> {
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

/** Undefined on the first read, or null when the store could not be read. */
export function useTaxRecords(): TaxRecords | null | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(() => readTaxRecords(db).catch(() => null), [db]);
}
