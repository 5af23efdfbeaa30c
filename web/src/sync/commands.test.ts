import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteRecord, deleteRecords, saveRecords, undoDelete } from './commands';
import { LocalDb } from './db';
import { DEFAULT_COURIER, entryFieldsBeforeCouriers } from './default-courier';
import type { EntryContent, RateCardContent } from './types';

const userId = '0190a6e2-7c1d-7000-8000-0000000000c1';
let db: LocalDb;

afterEach(async () => {
  db.close();
  await Dexie.delete(db.name);
});

function open(): LocalDb {
  db = new LocalDb(`commands-${crypto.randomUUID()}`, userId);
  return db;
}

const card = (courierId: string): RateCardContent => ({
  courierId,
  validFrom: '2000-01-01',
  label: '',
  perStop: null,
  perParcel: 45,
  parcelCapPerStop: null,
  perCollection: null,
  perFailed: null,
  dayRate: null,
  hourly: null,
  peaks: [],
  bandRates: null,
});

const day = (date: string, total: number): EntryContent => ({ date, stops: 100, extra: 0, notes: '', total, ...entryFieldsBeforeCouriers(userId) });

describe('saveRecords', () => {
  it('stores records of several kinds with their outbox items in the given order', async () => {
    const db = open();
    const [courier, firstCard] = await saveRecords(db, [
      { kind: 'courier', content: { ...DEFAULT_COURIER, name: 'Evri' } },
      { kind: 'rateCard', content: card('later') },
    ]);
    expect((await db.couriers.get(courier!.id))?.name).toBe('Evri');
    expect((await db.rateCards.get(firstCard!.id))?.perParcel).toBe(45);
    const items = await db.outbox.orderBy('seq').toArray();
    expect(items.map((i) => [i.name, i.recordId])).toEqual([
      ['courier.put', courier!.id],
      ['rateCard.put', firstCard!.id],
    ]);
    expect(items[0]!.args).toEqual({ id: courier!.id, ...DEFAULT_COURIER, name: 'Evri' });
  });

  it('edits records it is given ids of, keeping their creation time and server copy', async () => {
    const db = open();
    const [a, b] = await saveRecords(db, [
      { kind: 'entry', content: day('2025-03-01', 100) },
      { kind: 'entry', content: day('2025-03-02', 200) },
    ]);
    await db.entries.update(a!.id, { server: { ...day('2025-03-01', 100), version: 3 }, syncState: 'synced' });
    await saveRecords(db, [
      { kind: 'entry', content: day('2025-03-01', 150), id: a!.id },
      { kind: 'entry', content: day('2025-03-02', 250), id: b!.id },
    ]);
    const stored = await db.entries.get(a!.id);
    expect(stored).toMatchObject({ total: 150, createdAt: a!.createdAt, syncState: 'pending', server: { total: 100, version: 3 } });
    expect((await db.entries.get(b!.id))?.total).toBe(250);
    expect(await db.entries.count()).toBe(2);
    expect(await db.outbox.count()).toBe(4);
  });

  it('stores nothing when one write fails: all or none', async () => {
    const db = open();
    const broken = { kind: 'entry', content: null } as unknown as Parameters<typeof saveRecords>[1][number];
    await expect(saveRecords(db, [{ kind: 'entry', content: day('2025-03-01', 100) }, broken])).rejects.toThrow();
    expect(await db.entries.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('deleteRecords', () => {
  it('tombstones several records of several kinds in one go, skipping those already gone', async () => {
    const db = open();
    const [courier, firstCard] = await saveRecords(db, [
      { kind: 'courier', content: DEFAULT_COURIER },
      { kind: 'rateCard', content: card('c') },
    ]);
    await deleteRecords(db, [
      { kind: 'rateCard', id: firstCard!.id },
      { kind: 'courier', id: courier!.id },
      { kind: 'deduction', id: 'never-existed' },
    ]);
    expect((await db.couriers.get(courier!.id))?.deleted).toBe(1);
    expect((await db.rateCards.get(firstCard!.id))?.deleted).toBe(1);
    const names = (await db.outbox.orderBy('seq').toArray()).map((i) => i.name);
    expect(names).toEqual(['courier.put', 'rateCard.put', 'rateCard.delete', 'courier.delete']);
    await deleteRecords(db, [{ kind: 'courier', id: courier!.id }]);
    expect(await db.outbox.count()).toBe(4);
  });
});

describe('undoDelete', () => {
  it('withdraws a pending delete of any kind, not only of entries', async () => {
    const db = open();
    const [deduction] = await saveRecords(db, [
      { kind: 'deduction', content: { courierId: 'c', label: 'Van hire', amount: 18_500, repeat: 'weekly', from: '2025-03-03', to: null, purpose: 'vehicleHire', vehicleId: null } },
    ]);
    await deleteRecord(db, 'deduction', deduction!.id);
    const before = (await db.deductions.get(deduction!.id))!;
    expect(await undoDelete(db, 'deduction', { ...before, deleted: 0 })).toBe(deduction!.id);
    expect(await db.deductions.get(deduction!.id)).toMatchObject({ deleted: 0, label: 'Van hire', syncState: 'pending' });
    expect((await db.outbox.toArray()).map((i) => i.name)).toEqual(['deduction.put']);
  });
});
