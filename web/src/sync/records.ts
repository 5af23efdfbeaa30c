// The record kinds synced one record at a time with tombstones (entries and invoice checks):
// their content on the wire, where each lives on the device and which mutations carry it.
// Everything generic (save, delete, merge, pull, acknowledge, discard) goes through this table,
// so a new kind is one row here rather than a second copy of the sync code.
import type { Table } from 'dexie';
import { z } from 'zod';
import type { LocalDb } from './db';
import type { EntryContent, InvoiceContent, LocalRecord, MutationName } from './types';

export interface RecordContents {
  entry: EntryContent;
  invoice: InvoiceContent;
}

export type RecordKind = keyof RecordContents;

/** Plain Table typing: Dexie's EntityTable generics do not survive indexing by kind. */
export type RecordTable<K extends RecordKind> = Table<LocalRecord<RecordContents[K]>, string>;

const day = z.string();
const pence = z.number().int();

interface KindInfo<K extends RecordKind> {
  /** The content as the server sends it in a pull (crates/domain/src/sync.rs). */
  content: z.ZodObject<{ [F in keyof RecordContents[K]]: z.ZodType<RecordContents[K][F]> }>;
  put: MutationName;
  remove: MutationName;
  table: (db: LocalDb) => RecordTable<K>;
}

export const RECORD_KINDS: { [K in RecordKind]: KindInfo<K> } = {
  entry: {
    content: z.object({ date: day, stops: z.number().int(), extra: pence, notes: z.string(), total: pence }),
    put: 'entry.put',
    remove: 'entry.delete',
    table: (db) => db.entries as unknown as RecordTable<'entry'>,
  },
  invoice: {
    content: z.object({ periodStart: day, periodEnd: day, paid: pence, stops: z.number().int().nullable(), reference: z.string() }),
    put: 'invoice.put',
    remove: 'invoice.delete',
    table: (db) => db.invoices as unknown as RecordTable<'invoice'>,
  },
};

export const recordKinds = Object.keys(RECORD_KINDS) as RecordKind[];

function isRecordKind(kind: string): kind is RecordKind {
  return Object.hasOwn(RECORD_KINDS, kind);
}

/** The record kind a mutation is about, or null for the profile and settings documents. */
export function recordKindOf(name: MutationName): RecordKind | null {
  const prefix = name.slice(0, name.indexOf('.'));
  return isRecordKind(prefix) ? prefix : null;
}

/** Just the content fields of a record or a wire payload (no ids, timestamps or sync state). */
export function contentOf<K extends RecordKind>(kind: K, source: RecordContents[K]): RecordContents[K] {
  const content = {} as RecordContents[K];
  for (const field of Object.keys(RECORD_KINDS[kind].content.shape) as (keyof RecordContents[K])[]) content[field] = source[field];
  return content;
}

export function tableOf<K extends RecordKind>(db: LocalDb, kind: K): RecordTable<K> {
  return RECORD_KINDS[kind].table(db);
}
