import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { declaredVersions, LocalDb, VERSIONS } from './db';

const userId = '0190a6e2-7c1d-7000-8000-0000000000u1';
let name = '';

afterEach(async () => {
  await Dexie.delete(name);
});

/** The database exactly as the app before couriers (version 3) left it on a device. */
async function deviceBeforeCouriers(): Promise<void> {
  const old = new Dexie(name);
  old.version(1).stores({ entries: 'id, date, [deleted+date]', outbox: '++seq, &mutationId, recordId, parked', meta: 'key' });
  old.version(2).stores({ docs: 'kind' });
  old.version(3).stores({ invoices: 'id, periodStart, deleted' });
  await old.open();
  const stamps = { createdAt: '2025-03-21T18:00:00Z', updatedAt: '2025-03-21T18:00:00Z' };
  await old.table('entries').bulkPut([
    { id: 'e1', date: '2025-03-21', stops: 120, extra: 500, notes: 'Rain', total: 22_760, ...stamps, deleted: 0, syncState: 'synced', server: { date: '2025-03-21', stops: 120, extra: 500, notes: 'Rain', total: 22_760, version: 4 } },
    { id: 'e2', date: '2025-03-22', stops: 90, extra: 0, notes: '', total: 17_820, ...stamps, deleted: 0, syncState: 'pending', server: null },
    { id: 'e3', date: '2025-03-20', stops: 10, extra: 0, notes: '', total: 1_980, ...stamps, deleted: 1, syncState: 'synced', server: null },
  ]);
  await old.table('invoices').put({ id: 'i1', periodStart: '2025-03-16', periodEnd: '2025-03-22', paid: 40_000, stops: 210, reference: 'INV-1', ...stamps, deleted: 0, syncState: 'synced', server: { periodStart: '2025-03-16', periodEnd: '2025-03-22', paid: 40_000, stops: 210, reference: 'INV-1', version: 5 } });
  await old.table('meta').put({ key: 'cursor', value: 5 });
  old.close();
}

describe('LocalDb upgrade to couriers (version 4)', () => {
  it('gives every day and check made before couriers the default courier, keeping totals to the penny', async () => {
    name = `upgrade-${crypto.randomUUID()}`;
    await deviceBeforeCouriers();
    const db = new LocalDb(name, userId);
    const entries = await db.entries.orderBy('id').toArray();
    expect(entries.map((e) => [e.id, e.total, e.courierId, e.rateCardId])).toEqual([
      ['e1', 22_760, userId, userId],
      ['e2', 17_820, userId, userId],
      ['e3', 1_980, userId, userId],
    ]);
    expect(entries[0]).toMatchObject({ parcels: null, collections: null, failed: null, startTime: null, finishTime: null, notes: 'Rain', syncState: 'synced' });
    // Version 6: no day from before shifts is a separate shift (the server's migration 0015).
    expect(entries.map((e) => e.separateShift)).toEqual([false, false, false]);
    // The copy kept for discards reads as the server's own pull now does.
    expect(entries[0]?.server).toMatchObject({ total: 22_760, courierId: userId, rateCardId: userId, parcels: null, separateShift: false, version: 4 });
    expect(entries[1]?.server).toBeNull();
    const invoice = await db.invoices.get('i1');
    expect(invoice).toMatchObject({ paid: 40_000, courierId: userId, parcels: null, collections: null, deductions: null, status: 'unchecked', note: '' });
    expect(invoice?.server).toMatchObject({ paid: 40_000, courierId: userId, status: 'unchecked', version: 5 });
    expect(await db.couriers.count()).toBe(0); // they come from the server's pull
    expect(await db.getMeta('cursor', 0)).toBe(5);
    db.close();
  });
});

describe('LocalDb upgrade to deduction purposes (version 6)', () => {
  it('gives every deduction on the device no purpose and no vehicle, as the server does, keeping the rest', async () => {
    name = `upgrade-${crypto.randomUUID()}`;
    const old = new Dexie(name);
    old.version(1).stores({ entries: 'id, date, [deleted+date]', outbox: '++seq, &mutationId, recordId, parked', meta: 'key' });
    old.version(2).stores({ docs: 'kind' });
    old.version(3).stores({ invoices: 'id, periodStart, deleted' });
    old.version(4).stores({ couriers: 'id, deleted', rateCards: 'id, courierId, deleted', deductions: 'id, courierId, deleted' });
    old.version(5).stores({ expenses: 'id, date, deleted', vehicles: 'id, deleted', mileage: 'id, date, vehicleId, deleted', receiptPhotos: 'id, expenseId' });
    await old.open();
    const content = { courierId: 'c1', label: 'Van hire', amount: 19_500, repeat: 'weekly', from: '2025-09-01', to: null };
    const stamps = { createdAt: '2025-09-01T18:00:00Z', updatedAt: '2025-09-01T18:00:00Z' };
    await old.table('deductions').bulkPut([
      { id: 'd1', ...content, ...stamps, deleted: 0, syncState: 'synced', server: { ...content, version: 7 } },
      { id: 'd2', ...content, label: 'Fee', ...stamps, deleted: 0, syncState: 'pending', server: null },
    ]);
    old.close();

    const db = new LocalDb(name, userId);
    const [hire, fee] = await db.deductions.orderBy('id').toArray();
    expect(hire).toMatchObject({ label: 'Van hire', amount: 19_500, purpose: null, vehicleId: null, syncState: 'synced' });
    expect(hire?.server).toMatchObject({ label: 'Van hire', purpose: null, vehicleId: null, version: 7 });
    expect(fee).toMatchObject({ label: 'Fee', purpose: null, vehicleId: null, server: null });
    db.close();
  });
});

describe('LocalDb upgrade to evidence (version 13)', () => {
  it('keeps every receipt photo on the device, held by the expense that listed it', async () => {
    name = `upgrade-${crypto.randomUUID()}`;
    const old = new Dexie(name);
    old.version(5).stores({ expenses: 'id, date, deleted', receiptPhotos: 'id, expenseId' });
    await old.open();
    const blob = new Blob(['jpeg'], { type: 'image/jpeg' });
    await old.table('receiptPhotos').put({ id: 'r1', expenseId: 'x1', blob, type: 'image/jpeg', bytes: 4, createdAt: 1, uploadedAt: null, error: null });
    old.close();

    const db = new LocalDb(name, userId);
    const photo = await db.receiptPhotos.get('r1');
    expect(photo).toMatchObject({ holderId: 'x1', bytes: 4, uploadedAt: null, error: null });
    expect(photo).not.toHaveProperty('expenseId');
    expect(await db.receiptPhotos.where('holderId').equals('x1').count()).toBe(1);
    expect(await db.evidence.count()).toBe(0);
    db.close();
  });
});

describe('LocalDb upgrade to odometer readings by vehicle and date (version 14)', () => {
  it('keeps the mileage log and finds the finishes through the new index, not the days without one', async () => {
    name = `upgrade-${crypto.randomUUID()}`;
    const old = new Dexie(name);
    old.version(13).stores({ mileage: 'id, date, vehicleId, deleted' });
    await old.open();
    const trip = { courierId: null, odometerStart: 100, businessMiles: 10, commuteMiles: 0, note: '', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z', deleted: 0, syncState: 'synced', server: null };
    await old.table('mileage').bulkPut([
      { ...trip, id: 'm1', date: '2025-04-05', vehicleId: 'van', odometerEnd: 110 },
      { ...trip, id: 'm2', date: '2025-04-06', vehicleId: 'van', odometerStart: null, odometerEnd: null },
      { ...trip, id: 'm3', date: '2025-04-06', vehicleId: 'car', odometerEnd: 210 },
    ]);
    old.close();

    const db = new LocalDb(name, userId);
    expect(await db.mileage.count()).toBe(3);
    const vans = await db.mileage.where('[vehicleId+date+odometerEnd]').between(['van', Dexie.minKey], ['van', Dexie.maxKey]).primaryKeys();
    expect(vans).toEqual(['m1']);
    db.close();
  });
});

describe('LocalDb declares only the versions an older database needs', () => {
  /** The app as it declared its database before: every version, each with its upgrade. */
  class EveryVersion extends Dexie {
    constructor(name: string) {
      super(name);
      for (const { version, stores, upgrade } of VERSIONS) {
        const declared = this.version(version).stores(stores);
        if (upgrade) declared.upgrade((tx) => upgrade(tx, userId));
      }
    }
  }

  /** A record for every table a database of `version` has, as an app of that version would have written it. */
  async function deviceAt(dbName: string, version: number): Promise<void> {
    const old = new Dexie(dbName);
    for (const step of VERSIONS.filter((step) => step.version <= version)) old.version(step.version).stores(step.stores);
    await old.open();
    const stamps = { createdAt: '2025-03-21T18:00:00Z', updatedAt: '2025-03-21T18:00:00Z', deleted: 0, syncState: 'synced' };
    for (const table of old.tables) {
      const fields = Object.fromEntries(table.schema.indexes.flatMap((index) => (typeof index.keyPath === 'string' ? [[index.keyPath, index.keyPath === 'deleted' ? 0 : `${index.keyPath}-1`]] : [])));
      const record = { ...stamps, ...fields, note: 'kept', server: { note: 'kept', version: 3 } };
      await (table.schema.primKey.auto ? table.add(record) : table.put({ ...record, [table.schema.primKey.keyPath as string]: `${table.name}-1` }));
    }
    old.close();
  }

  interface TableContents {
    name: string;
    primKey: string;
    indexes: string[];
    rows: unknown[];
  }

  async function contents(db: Pick<Dexie, 'open' | 'tables' | 'close'>): Promise<TableContents[]> {
    await db.open();
    const tables = await Promise.all(
      [...db.tables]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map(async (table) => ({ name: table.name, primKey: table.schema.primKey.src, indexes: table.schema.indexes.map((index) => index.src).sort(), rows: (await table.toArray()) as unknown[] })),
    );
    db.close();
    return tables;
  }

  it('keeps the latest and every version with an upgrade, each with the tables of those left out before it', () => {
    expect(declaredVersions(VERSIONS).map((step) => [step.version, Object.keys(step.stores).sort()])).toEqual([
      [4, ['couriers', 'deductions', 'docs', 'entries', 'invoices', 'meta', 'outbox', 'rateCards']],
      [6, ['expenses', 'mileage', 'receiptPhotos', 'vehicles']],
      [7, []],
      [8, []],
      [13, ['evidence', 'fuelFills', 'receiptPhotos', 'sentUpdates', 'statementFormats', 'statementLines', 'statementQueries']],
      [14, ['mileage']],
    ]);
  });

  it.each(VERSIONS.map((step) => step.version))('upgrades a database of version %i to the same tables, indexes and records as declaring every version', async (version) => {
    name = `upgrade-${crypto.randomUUID()}`;
    const reference = `upgrade-${crypto.randomUUID()}`;
    await deviceAt(name, version);
    await deviceAt(reference, version);
    try {
      const upgraded = await contents(new LocalDb(name, userId));
      expect(upgraded).toEqual(await contents(new EveryVersion(reference)));
      // And a fresh database has the same tables and indexes.
      const fresh = `fresh-${crypto.randomUUID()}`;
      const none = (await contents(new LocalDb(fresh, userId))).map(({ rows: _, ...table }) => table);
      await Dexie.delete(fresh);
      expect(none).toEqual(upgraded.map(({ rows: _, ...table }) => table));
    } finally {
      await Dexie.delete(reference);
    }
  });
});
