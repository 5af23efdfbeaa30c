import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { LocalDb } from '@/sync/db';
import { recordKindOf, tableOf, type RecordContents, type RecordKind } from '@/sync/records';
import type { LocalRecord, OutboxItem } from '@/sync/types';

/** The record a parked change is about, with its kind, so it is described in its own words. */
export type ParkedRecord = { [K in RecordKind]: { kind: K; record: LocalRecord<RecordContents[K]> | undefined } }[RecordKind];

export interface ParkedChange {
  item: OutboxItem & { seq: number };
  /** The record the change is about (a tombstone for a delete), if still on the device; null for the profile and settings. */
  target: ParkedRecord | null;
}

export async function readParkedChanges(db: LocalDb): Promise<ParkedChange[]> {
  const items = (await db.outbox.where('parked').equals(1).sortBy('seq')) as (OutboxItem & { seq: number })[];
  return Promise.all(
    items.map(async (item): Promise<ParkedChange> => {
      const kind = recordKindOf(item.name);
      if (kind === null) return { item, target: null };
      const record = await tableOf(db, kind).get(item.recordId);
      return { item, target: { kind, record } as ParkedRecord };
    }),
  );
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
