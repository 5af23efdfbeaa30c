// Every statement query on the device, live: made here or pulled from another device.
import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { LocalStatementQuery } from '@/sync/types';

export function useStatementQueries(): readonly LocalStatementQuery[] | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(() => db.statementQueries.where('deleted').equals(0).toArray(), [db]);
}
