// The records the tax year is made from, live from the device's store: it works offline and
// follows every change (a day saved, an expense synced from another device) at once.
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { useEntriesOrNull } from '@/lib/sync-react/use-live-entries';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { readTaxRecordsBesidesEntries, withEntries, type DeviceTaxRecords } from '@/lib/sync-react/tax-records';

/**
 * Undefined on the first read, or null when the store could not be read. The entries are the
 * live ones every screen part shares (the header's day button reads them too): read once, not
 * twice, on a device with years of days (issue 30).
 */
export function useTaxRecords(): DeviceTaxRecords | null | undefined {
  const { db } = useSyncHandle();
  const entries = useEntriesOrNull();
  const rest = useLiveQuery(() => readTaxRecordsBesidesEntries(db).catch(() => null), [db]);
  return useMemo(() => {
    if (entries === null || rest === null) return null;
    if (entries === undefined || rest === undefined) return undefined;
    return withEntries(rest, entries);
  }, [entries, rest]);
}
