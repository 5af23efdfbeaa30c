// The device's own database. One per user, so signing in as someone else on a shared phone
// never mixes two people's days, and a signed-out user's unsent changes wait for them.
import Dexie, { type EntityTable, type Transaction } from 'dexie';
import { entryFieldsBeforeCouriers, statementCheckFieldsBeforeCouriers } from './default-courier';
import type {
  DocKind,
  LocalCourier,
  LocalDeduction,
  LocalDoc,
  LocalEntry,
  LocalExpense,
  LocalFuelFill,
  LocalStatementCheck,
  LocalMileage,
  LocalSentUpdate,
  LocalStatementQuery,
  LocalEvidence,
  LocalRateCard,
  LocalStatementFormat,
  LocalStatementLine,
  LocalVehicle,
  OutboxItem,
  ReceiptPhoto,
} from './types';

/** One version of the device's database: the tables and indexes it added or changed, and what it did to the records already there. */
export interface SchemaVersion {
  version: number;
  stores: Readonly<Record<string, string>>;
  upgrade?: (tx: Transaction, userId: string) => PromiseLike<unknown>;
}

/** Every version of the device's database, oldest first. */
export const VERSIONS: readonly SchemaVersion[] = [
  { version: 1, stores: { entries: 'id, date, [deleted+date]', outbox: '++seq, &mutationId, recordId, parked', meta: 'key' } },
  // Profile and settings: one document each, keyed by kind.
  { version: 2, stores: { docs: 'kind' } },
  // Statement checks: synced records like entries.
  { version: 3, stores: { invoices: 'id, periodStart, deleted' } },
  // Couriers, their rate cards and deductions (issue 12). Days and statement checks made
  // before then belong to the default courier, as the server's migration 0012 says.
  { version: 4, stores: { couriers: 'id, deleted', rateCards: 'id, courierId, deleted', deductions: 'id, courierId, deleted' }, upgrade: fillCourierFields },
  // Expenses with their receipt photos, vehicles and the mileage log (issue 13).
  { version: 5, stores: { expenses: 'id, date, deleted', vehicles: 'id, deleted', mileage: 'id, date, vehicleId, deleted', receiptPhotos: 'id, expenseId' } },
  // A deduction says what it is for and which vehicle (issue 25): the ones on the device get
  // null for both, as the server's migration 0015 gives them.
  { version: 6, stores: {}, upgrade: fillDeductionPurpose },
  // Separate shifts (issue 25): every day already on the device is not one, as the server's
  // migration 0017 says of its copy.
  { version: 7, stores: {}, upgrade: (tx) => tx.table('entries').toCollection().modify(fillMissing({ separateShift: false })) },
  // A vehicle's commute (issue 26): none said for the vehicles on the device, as the server's
  // migration 0020 gives its copy.
  { version: 8, stores: {}, upgrade: (tx) => tx.table('vehicles').toCollection().modify(fillMissing({ commuteMiles: 0 })) },
  // Statement lines and the saved statement formats (issue 28): new tables, nothing to fill.
  { version: 9, stores: { statementLines: 'id, invoiceId, date, deleted', statementFormats: 'id, courierId, deleted' } },
  // Sent quarterly updates (issue 29; version 9 is issue 28's statement lines).
  { version: 10, stores: { sentUpdates: 'id, taxYear, deleted' } },
  // Fuel fills (issue 32): a new table, nothing to fill.
  { version: 11, stores: { fuelFills: 'id, vehicleId, date, deleted' } },
  // Statement queries (issue 28): a new table, nothing to fill (version 11 is another kind's).
  { version: 12, stores: { statementQueries: 'id, statementCheckId, paidBackCheckId, deleted' } },
  // Evidence kept at the time (issue 28): a new table, nothing to fill. A receipt photo is
  // now held by an expense or an evidence item: `expenseId` becomes `holderId` (the record
  // that names it), so one upload queue serves both.
  {
    version: 13,
    stores: { evidence: 'id, entryId, statementLineId, statementQueryId, deleted', receiptPhotos: 'id, holderId' },
    upgrade: (tx) =>
      tx
        .table('receiptPhotos')
        .toCollection()
        .modify((photo: Record<string, unknown>) => {
          photo.holderId = photo.expenseId;
          delete photo.expenseId;
        }),
  },
  // A vehicle's odometer readings by date (issue 30): the day form prefills the start from
  // the vehicle's latest earlier finish, read through this index instead of the whole log.
  // A record with no finish (null) has no key in it, so the read skips days without one.
  { version: 14, stores: { mileage: 'id, date, vehicleId, deleted, [vehicleId+date+odometerEnd]' } },
];

/**
 * The versions Dexie is told of: those with an upgrade, which a database written by an older
 * app still needs, and the latest, each with the tables of the versions left out before it.
 * Each version declared costs a parse of every version before it (Dexie's Version.stores reads
 * the chain again), about 25 ms of every signed-in start on a slow phone with all fourteen
 * (issue 30). An older database still upgrades version by version as before: Dexie compares the
 * tables it has with the next declared version's, adds what is missing and runs that version's
 * upgrade (db.test.ts opens one of every version both ways and compares them).
 */
export function declaredVersions(history: readonly SchemaVersion[]): SchemaVersion[] {
  const declared: SchemaVersion[] = [];
  let stores: Record<string, string> = {};
  history.forEach((step, index) => {
    stores = { ...stores, ...step.stores };
    if (!step.upgrade && index < history.length - 1) return;
    declared.push({ ...step, stores });
    stores = {};
  });
  return declared;
}

export interface MetaRow {
  key: string;
  value: unknown;
}

export class LocalDb extends Dexie {
  entries!: EntityTable<LocalEntry, 'id'>;
  outbox!: EntityTable<OutboxItem, 'seq'>;
  meta!: EntityTable<MetaRow, 'key'>;
  docs!: EntityTable<LocalDoc, 'kind'>;
  /** The statement checks, in a table named (like their wire kind) before they were renamed: renaming it would move every device's data. */
  invoices!: EntityTable<LocalStatementCheck, 'id'>;
  couriers!: EntityTable<LocalCourier, 'id'>;
  rateCards!: EntityTable<LocalRateCard, 'id'>;
  deductions!: EntityTable<LocalDeduction, 'id'>;
  expenses!: EntityTable<LocalExpense, 'id'>;
  vehicles!: EntityTable<LocalVehicle, 'id'>;
  mileage!: EntityTable<LocalMileage, 'id'>;
  statementLines!: EntityTable<LocalStatementLine, 'id'>;
  statementFormats!: EntityTable<LocalStatementFormat, 'id'>;
  /** Sent Making Tax Digital updates (issue 29): never edited, only superseded. */
  sentUpdates!: EntityTable<LocalSentUpdate, 'id'>;
  fuelFills!: EntityTable<LocalFuelFill, 'id'>;
  statementQueries!: EntityTable<LocalStatementQuery, 'id'>;
  evidence!: EntityTable<LocalEvidence, 'id'>;
  /** Receipt photos: not synced records but files, uploaded from a queue (sync/receipts.ts). */
  receiptPhotos!: EntityTable<ReceiptPhoto, 'id'>;

  private readonly outboxListeners = new Set<() => void>();

  /** Calls `listener` after each local write that changed the outbox (something to push, or a change withdrawn); returns the way to stop. */
  onOutboxChange(listener: () => void): () => void {
    this.outboxListeners.add(listener);
    return () => this.outboxListeners.delete(listener);
  }

  /** Said by the writes in commands.ts and outbox.ts once committed: the coordinator nudges the engine. */
  outboxChanged(): void {
    for (const listener of this.outboxListeners) listener();
  }

  /** `userId` owns the database: its default courier and first rate card have that id. */
  constructor(
    name: string,
    readonly userId: string,
  ) {
    // No query cache: Dexie's default keeps every live query's result and hands each reader a
    // deep copy of it, on the main thread, after every read. The screens share their big reads
    // (lib/sync-react/shared-live-query.ts), so the copies were pure cost: tens of milliseconds
    // per read of ten years of days on a slow phone, and the cache held a second copy of them
    // in memory (issue 30). Live queries still run again after every change that touches them.
    super(name, { cache: 'disabled' });
    for (const { version, stores, upgrade } of declaredVersions(VERSIONS)) {
      const declared = this.version(version).stores(stores);
      if (upgrade) declared.upgrade((tx) => upgrade(tx, userId));
    }
  }

  async getDoc<K extends DocKind>(kind: K): Promise<Extract<LocalDoc, { kind: K }> | undefined> {
    return (await this.docs.get(kind)) as Extract<LocalDoc, { kind: K }> | undefined;
  }

  /** Every table a sync transaction may touch. */
  get syncTables() {
    return [
      this.entries,
      this.invoices,
      this.couriers,
      this.rateCards,
      this.deductions,
      this.expenses,
      this.vehicles,
      this.mileage,
      this.statementLines,
      this.statementFormats,
      this.sentUpdates,
      this.fuelFills,
      this.statementQueries,
      this.evidence,
      this.outbox,
      this.docs,
      this.meta,
    ];
  }

  async getMeta<T>(key: string, fallback: T): Promise<T> {
    const row = await this.meta.get(key);
    return row === undefined ? fallback : (row.value as T);
  }

  async setMeta(key: string, value: unknown): Promise<void> {
    await this.meta.put({ key, value });
  }
}

/**
 * Version 4's upgrade: what the server's migration 0012 does to the same records, so a device's
 * copy (and the server copy it keeps for discards) reads exactly as a fresh pull would.
 */
async function fillCourierFields(tx: Transaction, userId: string): Promise<void> {
  await tx.table('entries').toCollection().modify(fillMissing(entryFieldsBeforeCouriers(userId)));
  await tx.table('invoices').toCollection().modify(fillMissing(statementCheckFieldsBeforeCouriers(userId)));
}

/** Version 6's upgrade: what the server's migration 0015 does to the same deductions. */
async function fillDeductionPurpose(tx: Transaction): Promise<void> {
  await tx.table('deductions').toCollection().modify(fillMissing({ purpose: null, vehicleId: null }));
}

/**
 * Sets each field a record (and the server copy it keeps for discards) does not have yet. A
 * server copy stored as a version alone is the record's own content, so it gains them with it.
 */
function fillMissing(fields: object) {
  return (record: Record<string, unknown>) => {
    for (const target of [record, record.server]) {
      if (target === null || typeof target !== 'object') continue;
      for (const [field, value] of Object.entries(fields)) if (!(field in target)) (target as Record<string, unknown>)[field] = value;
    }
  };
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
    db = new LocalDb(name, userId);
    open.set(name, db);
  }
  return db;
}
