// The device's live entries, read once for every part of the screen that shows them (the
// dashboard, its header, the history, the reminders: issue 30).
import { useSyncExternalStore } from 'react';
import { sharedLiveQuery, type SharedLiveQuery } from './shared-live-query';
import { useSyncHandle } from './use-sync';
import type { LocalDb } from '@/sync/db';
import type { LocalEntry } from '@/sync/types';

/** Newest day first; two entries on one day, the later-created first. */
export function byNewest(a: LocalEntry, b: LocalEntry): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : -1;
}

/**
 * Every live (not deleted) entry on the device, newest first. The whole table is read rather
 * than the live ones through the [deleted+date] index: inside a live query, Dexie notes the
 * primary key of every record an index read returns (to follow changes to them), which for ten
 * years of days cost more than the read itself (issue 30), while a read of the whole table is
 * one key range to follow. Deleted days are few, so leaving them out here costs little.
 */
export async function readEntries(db: LocalDb): Promise<LocalEntry[]> {
  return liveRecords(await db.entries.toArray()).sort(byNewest);
}

/**
 * The records not deleted, in the order given. A table read through liveRecords gives what its
 * `deleted` index's equals(0) gives (primary key order), without the cost of an index read in a
 * live query (see readEntries).
 */
export function liveRecords<T extends { deleted: 0 | 1 }>(records: T[]): T[] {
  return records.filter((record) => record.deleted === 0);
}

const shared = new WeakMap<LocalDb, SharedLiveQuery<LocalEntry[]>>();

/** The entries of `db`, read once for every reader (lib/sync-react/shared-live-query.ts). */
function entriesOf(db: LocalDb): SharedLiveQuery<LocalEntry[]> {
  let query = shared.get(db);
  if (!query) {
    query = sharedLiveQuery(() => readEntries(db));
    shared.set(db, query);
  }
  return query;
}

/** The user's entries from the device, updated as they change; undefined on the first read. */
export function useEntries(): LocalEntry[] | undefined {
  const { entries, failed } = useEntriesRead();
  if (failed) throw failed.error;
  return entries;
}

/** The same entries, or null when the store could not be read: for a screen that says so itself. */
export function useEntriesOrNull(): LocalEntry[] | null | undefined {
  const { entries, failed } = useEntriesRead();
  return failed ? null : entries;
}

function useEntriesRead(): { entries: LocalEntry[] | undefined; failed: { error: unknown } | null } {
  const { db } = useSyncHandle();
  const query = entriesOf(db);
  const entries = useSyncExternalStore(query.subscribe, query.getSnapshot, query.getSnapshot);
  const error = query.error();
  return { entries, failed: error === undefined ? null : { error } };
}
