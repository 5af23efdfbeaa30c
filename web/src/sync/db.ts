// The device's own database. One per user, so signing in as someone else on a shared phone
// never mixes two people's days, and a signed-out user's unsent changes wait for them.
import Dexie, { type EntityTable } from 'dexie';
import type { DocKind, LocalDoc, LocalEntry, LocalInvoice, OutboxItem } from './types';

export interface MetaRow {
  key: string;
  value: unknown;
}

export class LocalDb extends Dexie {
  entries!: EntityTable<LocalEntry, 'id'>;
  outbox!: EntityTable<OutboxItem, 'seq'>;
  meta!: EntityTable<MetaRow, 'key'>;
  docs!: EntityTable<LocalDoc, 'kind'>;
  invoices!: EntityTable<LocalInvoice, 'id'>;

  constructor(name: string) {
    super(name);
    this.version(1).stores({
      entries: 'id, date, [deleted+date]',
      outbox: '++seq, &mutationId, recordId, parked',
      meta: 'key',
    });
    // Profile and settings: one document each, keyed by kind.
    this.version(2).stores({ docs: 'kind' });
    // Invoice checks: synced records like entries.
    this.version(3).stores({ invoices: 'id, periodStart, deleted' });
  }

  async getDoc<K extends DocKind>(kind: K): Promise<Extract<LocalDoc, { kind: K }> | undefined> {
    return (await this.docs.get(kind)) as Extract<LocalDoc, { kind: K }> | undefined;
  }

  /** Every table a sync transaction may touch. */
  get syncTables() {
    return [this.entries, this.invoices, this.outbox, this.docs, this.meta];
  }

  async getMeta<T>(key: string, fallback: T): Promise<T> {
    const row = await this.meta.get(key);
    return row === undefined ? fallback : (row.value as T);
  }

  async setMeta(key: string, value: unknown): Promise<void> {
    await this.meta.put({ key, value });
  }
}

export function databaseName(userId: string): string {
  return `delivery-tracker-${userId}`;
}

const open = new Map<string, LocalDb>();

/** The database of one user, opened once per page. */
export function localDbFor(userId: string): LocalDb {
  const name = databaseName(userId);
  let db = open.get(name);
  if (!db) {
    db = new LocalDb(name);
    open.set(name, db);
  }
  return db;
}
