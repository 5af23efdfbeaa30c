import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { LocalDb } from '@/sync/db';
import type { LocalEntry } from '@/sync/types';

/** Newest day first; two entries on one day, the later-created first. */
export function byNewest(a: LocalEntry, b: LocalEntry): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : -1;
}

/** Every live (not deleted) entry on the device, newest first. */
export async function readEntries(db: LocalDb): Promise<LocalEntry[]> {
  const live = await db.entries.where('[deleted+date]').between([0, Dexie.minKey], [0, Dexie.maxKey]).toArray();
  return live.sort(byNewest);
}

/** The user's entries from the device, updated as they change; undefined on the first read. */
export function useEntries(): LocalEntry[] | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(() => readEntries(db), [db]);
}
