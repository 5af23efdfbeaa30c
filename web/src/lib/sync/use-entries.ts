import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import type { LocalDb } from '@/sync/db';
import type { LocalEntry, OutboxItem } from '@/sync/types';
import { useSyncHandle } from './use-sync';

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

export interface ParkedChange {
  item: OutboxItem & { seq: number };
  /** The record the change is about (a tombstone for a delete), if still on the device. */
  entry: LocalEntry | undefined;
}

export async function readParkedChanges(db: LocalDb): Promise<ParkedChange[]> {
  const items = (await db.outbox.where('parked').equals(1).sortBy('seq')) as (OutboxItem & { seq: number })[];
  const entries = await db.entries.bulkGet(items.map((item) => item.recordId));
  return items.map((item, i) => ({ item, entry: entries[i] }));
}

/** Changes the server would not take, waiting for the user to Retry or Discard them. */
export function useParkedChanges(): ParkedChange[] | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(() => readParkedChanges(db), [db]);
}

/** Why each entry's change was refused, by entry id (for the "Not synced" label on entries). */
export function parkedReasonsByRecord(parked: readonly ParkedChange[] | undefined): Map<string, string> {
  return new Map((parked ?? []).map(({ item }) => [item.recordId, item.lastError ?? 'Not accepted by the server']));
}
