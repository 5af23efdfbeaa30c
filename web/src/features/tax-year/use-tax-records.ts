// The records the tax year is made from, live from the device's store: it works offline and
// follows every change (a day saved, an expense synced from another device) at once.
import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { readTaxRecords, type DeviceTaxRecords } from '@/lib/sync-react/tax-records';

/** Undefined on the first read, or null when the store could not be read. */
export function useTaxRecords(): DeviceTaxRecords | null | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(() => readTaxRecords(db).catch(() => null), [db]);
}
