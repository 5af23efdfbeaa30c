// The record kinds synced one record at a time with tombstones (entries and invoice checks):
// where each lives on the device, what its content fields are and which mutations carry it.
// Everything generic (save, delete, merge, acknowledge, discard) goes through this table, so a
// new kind is one row here rather than a second copy of the sync code.
import type { Table } from 'dexie';
import type { LocalDb } from './db';
import type { EntryContent, InvoiceContent, LocalRecord, MutationName } from './types';

export interface RecordContents {
  entry: EntryContent;
  invoice: InvoiceContent;
}

export type RecordKind = keyof RecordContents;

/** Plain Table typing: Dexie's EntityTable generics do not survive indexing by kind. */
export type RecordTable<K extends RecordKind> = Table<LocalRecord<RecordContents[K]>, string>;

interface KindInfo<K extends RecordKind> {
  fields: readonly (keyof RecordContents[K])[];
  put: MutationName;
  remove: MutationName;
  table: (db: LocalDb) => RecordTable<K>;
}

export const RECORD_KINDS: { [K in RecordKind]: KindInfo<K> } = {
  entry: {
    fields: ['date', 'stops', 'extra', 'notes', 'total'],
    put: 'entry.put',
    remove: 'entry.delete',
    table: (db) => db.entries as unknown as RecordTable<'entry'>,
  },
  invoice: {
    fields: ['periodStart', 'periodEnd', 'paid', 'stops', 'reference'],
    put: 'invoice.put',
    remove: 'invoice.delete',
    table: (db) => db.invoices as unknown as RecordTable<'invoice'>,
  },
};

/** The record kind a mutation is about, or null for the profile and settings documents. */
export function recordKindOf(name: MutationName): RecordKind | null {
  const prefix = name.slice(0, name.indexOf('.'));
  return prefix === 'entry' || prefix === 'invoice' ? prefix : null;
}

/** Just the content fields of a record or a wire payload (no ids, timestamps or sync state). */
export function contentOf<K extends RecordKind>(kind: K, source: RecordContents[K]): RecordContents[K] {
  const content = {} as RecordContents[K];
  for (const field of RECORD_KINDS[kind].fields) content[field] = source[field];
  return content;
}

export function tableOf<K extends RecordKind>(db: LocalDb, kind: K): RecordTable<K> {
  return RECORD_KINDS[kind].table(db);
}
