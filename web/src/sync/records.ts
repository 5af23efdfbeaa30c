// The record kinds synced one record at a time with tombstones (entries, statement checks,
// couriers, rate cards, deductions, expenses, vehicles, mileage, statement lines and formats):
// their content on the wire, where each lives on the device and which mutations carry it.
// Everything generic (save, delete, merge, pull, acknowledge, discard) goes through this table,
// so a new kind is one row here rather than a second copy of the sync code.
import type { Table } from 'dexie';
import type { z } from '../lib/zod';
import { CONTENT_SCHEMAS, KIND_NAMES, MUTATIONS, type GeneratedContents } from './contract.generated';
import type { LocalDb } from './db';
import type { LocalRecord, MutationName, ServerCopyOf } from './types';

/** Each kind's content (generated from the Rust domain: contract.generated.ts). */
export type RecordContents = GeneratedContents;

export type RecordKind = keyof RecordContents;

/** Plain Table typing: Dexie's EntityTable generics do not survive indexing by kind. */
export type RecordTable<K extends RecordKind> = Table<LocalRecord<RecordContents[K]>, string>;

interface KindInfo<K extends RecordKind> {
  /** The content as the server sends it in a pull (generated from crates/domain/src/sync.rs). */
  content: z.ZodObject<{ [F in keyof RecordContents[K]]: z.ZodType<RecordContents[K][F]> }>;
  put: MutationName;
  remove: MutationName;
  table: (db: LocalDb) => RecordTable<K>;
}

/** Where each kind lives on the device: the one per-kind line written by hand (db.ts holds the tables). */
const TABLES: { [K in RecordKind]: (db: LocalDb) => Table<unknown, string> } = {
  entry: (db) => db.entries,
  invoice: (db) => db.invoices,
  courier: (db) => db.couriers,
  rateCard: (db) => db.rateCards,
  deduction: (db) => db.deductions,
  expense: (db) => db.expenses,
  vehicle: (db) => db.vehicles,
  mileage: (db) => db.mileage,
  statementLine: (db) => db.statementLines,
  statementFormat: (db) => db.statementFormats,
  sentUpdate: (db) => db.sentUpdates,
  fuelFill: (db) => db.fuelFills,
  statementQuery: (db) => db.statementQueries,
  evidence: (db) => db.evidence,
};

function kindInfo<K extends RecordKind>(kind: K): KindInfo<K> {
  return {
    // Made when first read (contract.generated.ts).
    get content() {
      return CONTENT_SCHEMAS[kind] as unknown as KindInfo<K>['content'];
    },
    put: MUTATIONS[kind].put,
    remove: MUTATIONS[kind].remove,
    table: (db) => TABLES[kind](db) as unknown as RecordTable<K>,
  };
}

/** Every kind, in the server's registry order (contract.generated.ts). */
export const RECORD_KINDS: { [K in RecordKind]: KindInfo<K> } = Object.fromEntries(KIND_NAMES.map((kind) => [kind, kindInfo(kind)])) as {
  [K in RecordKind]: KindInfo<K>;
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

/**
 * The server's last confirmed copy of a record, or null when the server has no live copy. The one
 * reader of `server` (see LocalRecord): a stored version number stands for the record's own
 * content at that version, and older databases hold full copies, which read as they are.
 */
export function serverCopyOf<K extends RecordKind>(kind: K, record: LocalRecord<RecordContents[K]>): ServerCopyOf<RecordContents[K]> | null {
  const { server } = record;
  if (server === null || server === undefined) return null;
  return typeof server === 'number' ? { ...contentOf(kind, record), version: server } : server;
}

/** The version of the server's last confirmed copy, or null when it has no live copy. */
export function serverVersionOf(record: Pick<LocalRecord<unknown>, 'server'>): number | null {
  const { server } = record;
  if (server === null || server === undefined) return null;
  return typeof server === 'number' ? server : server.version;
}

/** Whether the server holds a live copy of the record (it was pulled or acknowledged, and not deleted there). */
export function isOnServer(record: Pick<LocalRecord<unknown>, 'server'>): boolean {
  return serverVersionOf(record) !== null;
}

export function tableOf<K extends RecordKind>(db: LocalDb, kind: K): RecordTable<K> {
  return RECORD_KINDS[kind].table(db);
}
