// What the day form's odometer part needs from the mileage log (issue 26), read through the
// date indexes rather than the whole log (issue 30: ten years are thousands of records, and the
// dashboard's day form read and sorted all of them to prefill two numbers).
import Dexie from 'dexie';
import { readVehicles } from '@/lib/sync-react/use-vehicles';
import type { LocalDb } from '@/sync/db';
import type { LocalMileage } from '@/sync/types';

export interface DayOdometerLog {
  /** The vehicle of the latest live record of a live vehicle (by date, then when made), or null. */
  likelyVehicleId: string | null;
  /** The live records dated on the day, of any vehicle. */
  onDate: LocalMileage[];
  /** Each vehicle's latest finish before the day (by date, then when made), or null: lastFinishOf's answer. */
  lastFinish: Map<string, number | null>;
}

/** Latest first: by date, then when made; of two made at once, the one first in id order. */
function later(a: LocalMileage, b: LocalMileage): boolean {
  if (a.date !== b.date) return a.date > b.date;
  if (a.createdAt !== b.createdAt) return a.createdAt > b.createdAt;
  return a.id < b.id;
}

function latestOf(records: readonly LocalMileage[]): LocalMileage | null {
  let latest: LocalMileage | null = null;
  for (const record of records) if (!latest || later(record, latest)) latest = record;
  return latest;
}

/**
 * The log's facts for the day `date` and the live vehicles. The vehicles are read here, in the
 * same live query, rather than waited for from the screen: the prefill is there as soon as the
 * vehicles are. Each read walks an
 * index from the newest end and stops at the first record that counts, then takes every record
 * of that date to settle who was made last: a few records, however long the log.
 */
export async function readDayOdometerLog(db: LocalDb, date: string): Promise<DayOdometerLog> {
  const vehicleIds = (await readVehicles(db)).map((vehicle) => vehicle.id);
  const live = new Set(vehicleIds);
  const liveOn = async (day: string) => db.mileage.where('date').equals(day).filter((record) => record.deleted === 0).toArray();
  const latestFinish = async (vehicleId: string): Promise<[string, number | null]> => {
    // Keys [vehicle, date, finish] dated before the day; a record with no finish has no key.
    const index = db.mileage.where('[vehicleId+date+odometerEnd]');
    const first = await index
      .between([vehicleId, Dexie.minKey, Dexie.minKey], [vehicleId, date, Dexie.minKey], true, false)
      .reverse()
      .filter((record) => record.deleted === 0)
      .first();
    if (!first) return [vehicleId, null];
    const sameDay = await index.between([vehicleId, first.date, Dexie.minKey], [vehicleId, first.date, Dexie.maxKey]).filter((record) => record.deleted === 0).toArray();
    return [vehicleId, latestOf(sameDay)?.odometerEnd ?? null];
  };
  const [onDate, newest, finishes] = await Promise.all([
    liveOn(date),
    // With no live vehicle nothing counts: no walk through the whole log to find that out.
    live.size === 0
      ? undefined
      : db.mileage
          .orderBy('date')
          .reverse()
          .filter((record) => record.deleted === 0 && live.has(record.vehicleId))
          .first(),
    Promise.all(vehicleIds.map(latestFinish)),
  ]);
  // Every live record of the newest date: the one made last names the likely vehicle.
  const latest = newest ? latestOf((await liveOn(newest.date)).filter((record) => live.has(record.vehicleId))) : null;
  return { likelyVehicleId: latest?.vehicleId ?? null, onDate, lastFinish: new Map(finishes) };
}
