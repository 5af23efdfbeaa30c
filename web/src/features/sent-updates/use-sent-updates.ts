// Every sent update on the device, live: they arrive from other devices with the pull.
import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { LocalSentUpdate } from '@/sync/types';

export function useSentUpdates(): readonly LocalSentUpdate[] | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(() => db.sentUpdates.where('deleted').equals(0).toArray(), [db]);
}
