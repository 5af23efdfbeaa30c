// Two devices of one account, each with its own on-device database, import the same file with
// no network: they must write the same record ids, so the server ends with one record per day.
import 'fake-indexeddb/auto';
import { saveRecords } from '@/sync/commands';
import { LocalDb } from '@/sync/db';
import { newId } from '@/sync/ids';
import { makeCourier, seedDefaultCourier } from '@/testing/pay-fixtures';
import { TEST_USER_ID } from '@/testing/sync-handle';
import { describe, expect, it } from 'vitest';
import { readCsvContext, readDeviceRecords } from './import-commands';
import { entryFieldsBeforeCouriers } from '@/sync/default-courier';
import { entriesToCsv } from './csv-export';
import { csvEntries, readCsvTable } from './import-csv-entries';
import { detectLayout, mappingFor } from './import-csv-layouts';
import { importIds } from './import-ids';
import { readJsonExport } from './import-json';
import { planImport, type ImportPlan, type ParsedFile } from '@/core/import/import-plan';

const EVRI = '0190a6e2-7c1d-7000-8000-0000000e0e71';
const V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const CSV = ['Courier,Date,Stops,Total', ',21/03/2025,120,220.00', 'Evri,21/03/2025,80,150.00', 'evri,22/03/2025,90,160.00', ''].join('\n');

/** A device of the test account as sign-in leaves it: the default courier and Evri, synced. */
async function newDevice(): Promise<LocalDb> {
  const db = new LocalDb(`device-${crypto.randomUUID()}`, TEST_USER_ID);
  await seedDefaultCourier(db);
  await db.couriers.put(makeCourier(EVRI, { name: 'Evri' }));
  return db;
}

/** What the import panel does on confirm: plan against the device, then one saveRecords. */
async function importFile(db: LocalDb, parse: (db: LocalDb) => Promise<ParsedFile>, keepIds = true): Promise<ImportPlan> {
  const parsed = await parse(db);
  const derivedIds = await importIds(parsed, db.userId);
  const plan = planImport(parsed, await readDeviceRecords(db), newId, { keepIds, derivedIds });
  await saveRecords(db, plan.writes);
  return plan;
}

async function readCsv(db: LocalDb): Promise<ParsedFile> {
  const table = readCsvTable(CSV);
  const layout = detectLayout(table.header);
  return csvEntries(table, mappingFor(layout, table.header), layout, await readCsvContext(db));
}

/** Each live day as id, courier and date, and the record ids waiting in the outbox. */
async function daysOf(db: LocalDb) {
  const entries = await db.entries.where('deleted').equals(0).toArray();
  const outbox = await db.outbox.toArray();
  return {
    days: entries.map((e) => `${e.id} ${e.courierId} ${e.date}`).sort(),
    pushed: outbox.map((item) => item.recordId).sort(),
  };
}

describe('the ids an import writes', () => {
  it('are the same on two offline devices importing the same CSV, one per courier and day', async () => {
    const [phone, laptop] = [await newDevice(), await newDevice()];
    const onPhone = await importFile(phone, readCsv);
    const onLaptop = await importFile(laptop, readCsv);
    expect(onPhone.added.entry).toBe(3);
    expect(onLaptop.writes).toEqual(onPhone.writes);

    const [a, b] = [await daysOf(phone), await daysOf(laptop)];
    expect(a).toEqual(b);
    expect(a.days).toHaveLength(3);
    expect(a.pushed).toEqual(onPhone.writes.map((w) => w.id).sort());
    for (const write of onPhone.writes) expect(write.id).toMatch(V5);
    // Two couriers on one date are two days, with two ids.
    expect(new Set(onPhone.writes.map((w) => w.id)).size).toBe(3);
  });

  it('import a separate shift from our own export beside its day, with the same ids on both devices', async () => {
    const shiftDay = (total: number, separateShift: boolean) => ({ date: '2025-03-21', stops: 60, extra: 0, notes: '', total, ...entryFieldsBeforeCouriers(TEST_USER_ID), rateCardId: null, separateShift });
    const ours = entriesToCsv([shiftDay(11_880, false), shiftDay(9_900, true), shiftDay(5_000, true)], [{ id: TEST_USER_ID, name: 'My courier' }]);
    const read = async (db: LocalDb) => {
      const table = readCsvTable(ours);
      const layout = detectLayout(table.header);
      expect(layout).toBe('ours');
      return csvEntries(table, mappingFor(layout, table.header), layout, await readCsvContext(db));
    };
    const [phone, laptop] = [await newDevice(), await newDevice()];
    const onPhone = await importFile(phone, read);
    const onLaptop = await importFile(laptop, read);
    expect(onPhone.added.entry).toBe(3);
    expect(onPhone.duplicates).toEqual([]);
    expect(onLaptop.writes).toEqual(onPhone.writes);
    expect(new Set(onPhone.writes.map((w) => w.id)).size).toBe(3);
    expect(onPhone.writes.map((w) => 'separateShift' in w.content && w.content.separateShift)).toEqual([false, true, true]);
    // A second import finds each of them already there.
    expect((await importFile(phone, read)).writes).toEqual([]);
  });

  it('leave a second import on the same device to the duplicates check, as before', async () => {
    const phone = await newDevice();
    await importFile(phone, readCsv);
    const again = await importFile(phone, readCsv);
    expect(again.writes).toEqual([]);
    expect(again.duplicates.map((d) => d.place)).toEqual(['Row 2', 'Row 3', 'Row 4']);
    expect((await daysOf(phone)).days).toHaveLength(3);
  });

  it('give a day deleted on the device a new id when it is imported again (the server keeps a deleted id deleted)', async () => {
    const phone = await newDevice();
    const first = await importFile(phone, readCsv);
    const deletedId = first.writes[0]?.id as string;
    await phone.entries.update(deletedId, { deleted: 1 });
    const again = await importFile(phone, readCsv);
    expect(again.writes).toHaveLength(1);
    expect(again.writes[0]?.content).toEqual(first.writes[0]?.content);
    expect(again.writes[0]?.id).not.toBe(deletedId);
  });

  it("are the same on two devices importing another account's JSON export, and are not the file's", async () => {
    const otherAccount = '0190a6e2-7c1d-7000-8000-00000000a11e';
    const day = (id: string, date: string) => ({ id, date, stops: 100, extra: 0, notes: '', total: 20_000, courierId: otherAccount, rateCardId: null, parcels: null, collections: null, failed: null, startTime: null, finishTime: null });
    const file = JSON.stringify({
      format: 'delivery-tracker-export',
      version: 1,
      accountId: otherAccount,
      couriers: [makeCourier(otherAccount, { name: 'Old default' })],
      entries: [day('0190a6e2-7c1d-7000-8000-0000000000d1', '2025-04-07'), day('0190a6e2-7c1d-7000-8000-0000000000d2', '2025-04-08')],
    });
    const parse = () => {
      const result = readJsonExport(file);
      if ('error' in result) throw new Error(result.error);
      return Promise.resolve(result);
    };
    const [phone, laptop] = [await newDevice(), await newDevice()];
    const onPhone = await importFile(phone, parse, false);
    const onLaptop = await importFile(laptop, parse, false);
    expect(onPhone.invalid).toEqual([]);
    expect(onPhone.added.entry).toBe(2);
    expect(onLaptop.writes).toEqual(onPhone.writes);
    expect(await daysOf(laptop)).toEqual(await daysOf(phone));
    for (const write of onPhone.writes) {
      expect(write.id).toMatch(V5);
      expect(file).not.toContain(write.id as string);
    }
  });
});
