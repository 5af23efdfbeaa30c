import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { lastFinishOf } from '@/core/mileage/day-miles';
import { LocalDb } from '@/sync/db';
import type { LocalMileage, LocalVehicle } from '@/sync/types';
import { readDayOdometerLog } from './day-odometer-log';

const userId = '0190a6e2-7c1d-7000-8000-0000000000d7';
let db: LocalDb | null = null;

afterEach(async () => {
  db?.close();
  if (db) await db.delete();
  db = null;
});

// Few dates, times and vehicles, so records share a day, a moment and a vehicle often.
const DATES = ['2025-04-05', '2025-04-06', '2025-04-07', '2026-04-05', '2026-04-06'];
const recordArb = fc.record({
  id: fc.uuid(),
  date: fc.constantFrom(...DATES),
  createdAt: fc.constantFrom('2025-01-01T08:00:00.000Z', '2025-01-01T09:00:00.000Z', '2026-01-01T08:00:00.000Z'),
  vehicleId: fc.constantFrom('van', 'car', 'sold'),
  odometerStart: fc.option(fc.integer({ min: 0, max: 99_999 })),
  odometerEnd: fc.option(fc.integer({ min: 0, max: 99_999 })),
  deleted: fc.constantFrom<0 | 1>(0, 0, 1),
});

function stored(record: Pick<LocalMileage, 'id' | 'date' | 'createdAt' | 'vehicleId' | 'odometerStart' | 'odometerEnd' | 'deleted'>): LocalMileage {
  return { ...record, courierId: null, businessMiles: 10, commuteMiles: 0, note: '', updatedAt: record.createdAt, syncState: 'synced', server: null };
}

function vehicle(id: string, deleted: 0 | 1): LocalVehicle {
  return { id, name: id, type: 'carVan', method: 'flatRate', commuteMiles: 0, createdAt: '2025-01-01T08:00:00.000Z', updatedAt: '2025-01-01T08:00:00.000Z', deleted, syncState: 'synced', server: null };
}

/** The answers as the day form worked them out from the whole live log (in id order, as it was read). */
function fromWholeLog(log: readonly LocalMileage[], date: string, vehicleIds: readonly string[]) {
  const live = log.filter((record) => record.deleted === 0).sort((a, b) => (a.id < b.id ? -1 : 1));
  const vehicles = new Set(vehicleIds);
  const latest = live
    .filter((record) => vehicles.has(record.vehicleId))
    .sort((a, b) => (a.date === b.date ? b.createdAt.localeCompare(a.createdAt) : a.date < b.date ? 1 : -1))[0];
  return {
    likelyVehicleId: latest?.vehicleId ?? null,
    onDate: live.filter((record) => record.date === date),
    lastFinish: new Map(vehicleIds.map((id) => [id, lastFinishOf(live, id, date)])),
  };
}

describe('the day form\'s odometer facts read by the indexes (issue 30)', () => {
  it('are what the whole mileage log gives: the likely vehicle, the day\'s records, each vehicle\'s last finish', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(recordArb, { maxLength: 25, selector: (record) => record.id }),
        fc.constantFrom(...DATES, '2025-04-01', '2027-01-01'),
        fc.subarray(['car', 'van']),
        async (records, date, vehicleIds) => {
          db = new LocalDb(`day-odometer-${crypto.randomUUID()}`, userId);
          try {
            const log = records.map(stored);
            await db.mileage.bulkPut(log);
            // The vehicles named live, the others deleted; in the order the vehicles are read (by name).
            await db.vehicles.bulkPut(['car', 'sold', 'van'].map((id) => vehicle(id, vehicleIds.includes(id) ? 0 : 1)));
            expect(await readDayOdometerLog(db, date)).toEqual(fromWholeLog(log, date, vehicleIds));
          } finally {
            db.close();
            await db.delete();
            db = null;
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('finds the last finish before the day and not on it, skipping days with no finish and deleted records', async () => {
    db = new LocalDb(`day-odometer-${crypto.randomUUID()}`, userId);
    const base = { createdAt: '2025-01-01T08:00:00.000Z', vehicleId: 'van', odometerStart: 100, deleted: 0 as const };
    await db.mileage.bulkPut([
      stored({ ...base, id: 'a', date: '2025-04-04', odometerEnd: 150 }),
      stored({ ...base, id: 'b', date: '2025-04-05', odometerEnd: null }),
      stored({ ...base, id: 'c', date: '2025-04-05', odometerEnd: 170, deleted: 1 }),
      stored({ ...base, id: 'd', date: '2025-04-06', odometerEnd: 190 }),
    ]);
    await db.vehicles.put(vehicle('van', 0));
    const log = await readDayOdometerLog(db, '2025-04-06');
    expect(log.lastFinish.get('van')).toBe(150);
    expect(log.likelyVehicleId).toBe('van');
    expect(log.onDate.map((record) => record.id)).toEqual(['d']);
  });
});
