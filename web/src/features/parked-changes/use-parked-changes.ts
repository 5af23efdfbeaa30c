import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncHandle } from '@/lib/sync/use-sync';
import type { LocalDb } from '@/sync/db';
import type { LocalEntry, OutboxItem } from '@/sync/types';

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

/** Why each record's change was refused, by record id (for the "Not synced" label on entries and checks). */
export function parkedReasonsByRecord(parked: readonly ParkedChange[] | undefined): Map<string, string> {
  return new Map((parked ?? []).map(({ item }) => [item.recordId, item.lastError ?? 'Not accepted by the server']));
}
