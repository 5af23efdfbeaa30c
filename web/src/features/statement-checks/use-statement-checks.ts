import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { LocalDb } from '@/sync/db';
import type { LocalStatementCheck } from '@/sync/types';

/** Latest period first; two checks for one period, the later-created first. */
export function byLatestPeriod(a: LocalStatementCheck, b: LocalStatementCheck): number {
  if (a.periodEnd !== b.periodEnd) return a.periodEnd < b.periodEnd ? 1 : -1;
  if (a.periodStart !== b.periodStart) return a.periodStart < b.periodStart ? 1 : -1;
  return a.createdAt < b.createdAt ? 1 : -1;
}

/** Every live (not deleted) statement check on the device, latest period first. */
export async function readStatementChecks(db: LocalDb): Promise<LocalStatementCheck[]> {
  const live = await db.invoices.where('deleted').equals(0).toArray();
  return live.sort(byLatestPeriod);
}

/** The user's statement checks from the device, updated as they change; undefined on the first read. */
export function useStatementChecks(): LocalStatementCheck[] | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(() => readStatementChecks(db), [db]);
}
