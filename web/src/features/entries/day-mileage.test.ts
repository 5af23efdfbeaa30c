// The day form's odometer (issue 26): one day in one vehicle is one mileage record, written in
// the same transaction as the day, updated (never doubled) by an edit, kept when the day goes.
import { createTestSyncHandle, type TestSyncHandle } from '@/testing/sync-handle';
import { afterEach, describe, expect, it } from 'vitest';
import { readPaySetup } from '@/lib/sync-react/use-pay-setup';
import { saveRecord } from '@/sync/commands';
import { deleteDay, editDay, logDay } from './commands';

let handles: TestSyncHandle[] = [];
afterEach(() => {
  for (const handle of handles) handle.db.close();
  handles = [];
});

async function setUp() {
  const handle = createTestSyncHandle();
  handles.push(handle);
  const van = await saveRecord(handle.db, 'vehicle', { name: 'Transit', type: 'carVan', method: 'flatRate', commuteMiles: 6 });
  const pay = await readPaySetup(handle.db);
  return { handle, van, pay };
}

const day = (courierId: string, stops = 100, date = '2026-03-02') => ({
  date,
  stops,
  extra: 0,
  notes: '',
  courierId,
  parcels: null,
  collections: null,
  failed: null,
  startTime: null,
  finishTime: null,
  separateShift: false,
  bands: null,
});

const liveMileage = async (handle: TestSyncHandle) => (await handle.db.mileage.toArray()).filter((record) => record.deleted === 0);

describe('a day with the van’s odometer', () => {
  it('writes the day and its mileage record together, the commute taken off', async () => {
    const { handle, van, pay } = await setUp();
    const entry = await logDay(handle, day(handle.db.userId), pay.cards, { vehicleId: van.id, odometerStart: 42_000, odometerEnd: 42_130, dayCommute: 12 });
    const [record, ...others] = await liveMileage(handle);
    expect(others).toEqual([]);
    expect(record).toMatchObject({ date: '2026-03-02', vehicleId: van.id, courierId: entry.courierId, odometerStart: 42_000, odometerEnd: 42_130, businessMiles: 118, commuteMiles: 12, note: '' });
    const names = (await handle.db.outbox.orderBy('seq').toArray()).map((item) => item.name);
    expect(names.slice(-2)).toEqual(['entry.put', 'mileage.put']);
  });

  it('updates that one record when the day is edited, and the one typed on the mileage tab too', async () => {
    const { handle, van, pay } = await setUp();
    // Typed on the mileage tab first, with a note.
    const typed = await saveRecord(handle.db, 'mileage', { date: '2026-03-02', vehicleId: van.id, courierId: null, odometerStart: 41_990, odometerEnd: 42_100, businessMiles: 100, commuteMiles: 10, note: 'Depot move' });
    const entry = await logDay(handle, day(handle.db.userId), pay.cards, { vehicleId: van.id, odometerStart: 42_000, odometerEnd: 42_130, dayCommute: 12 });
    await editDay(handle, entry.id, entry, day(handle.db.userId, 101), pay.cards, { vehicleId: van.id, odometerStart: 42_000, odometerEnd: 42_140, dayCommute: 12 });
    const records = await liveMileage(handle);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ id: typed.id, odometerEnd: 42_140, businessMiles: 128, commuteMiles: 12, note: 'Depot move' });
  });

  it('writes nothing to the log without readings, and refuses readings that cannot make a day, saving neither', async () => {
    const { handle, van, pay } = await setUp();
    await logDay(handle, day(handle.db.userId), pay.cards);
    expect(await liveMileage(handle)).toEqual([]);
    await expect(logDay(handle, day(handle.db.userId, 5, '2026-03-03'), pay.cards, { vehicleId: van.id, odometerStart: 500, odometerEnd: 400, dayCommute: 0 })).rejects.toThrow(RangeError);
    expect((await handle.db.entries.toArray()).map((entry) => entry.date)).toEqual(['2026-03-02']);
  });

  it('keeps the mileage when the day is deleted, and says so', async () => {
    const { handle, van, pay } = await setUp();
    const entry = await logDay(handle, day(handle.db.userId), pay.cards, { vehicleId: van.id, odometerStart: 42_000, odometerEnd: 42_130, dayCommute: 12 });
    expect(await deleteDay(handle, entry.id)).toEqual({ mileageKept: 1 });
    expect(await liveMileage(handle)).toHaveLength(1);
    const plain = await logDay(handle, day(handle.db.userId, 10, '2026-03-05'), pay.cards);
    expect(await deleteDay(handle, plain.id)).toEqual({ mileageKept: 0 });
  });
});
