import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { readVehicles } from '@/lib/sync-react/use-vehicles';
import type { LocalDb } from '@/sync/db';
import type { LocalFuelFill, LocalVehicle } from '@/sync/types';
import { hasFuelExpense } from './commands';

export interface FuelLog {
  /** Every live fill, latest first. */
  fills: LocalFuelFill[];
  /** Every vehicle, deleted ones included (their fills stay in the log). */
  vehicles: LocalVehicle[];
  /** Why the server refused a fill's change, by fill id. */
  parkedReasons: Map<string, string>;
}

/** Latest day first; two fills of one day, the later-logged first. */
export function byLatestFill(a: LocalFuelFill, b: LocalFuelFill): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id.localeCompare(b.id);
}

export async function readFuelLog(db: LocalDb): Promise<FuelLog> {
  const [fills, vehicles, parked] = await Promise.all([db.fuelFills.where('deleted').equals(0).toArray(), readVehicles(db, true), db.outbox.where('parked').equals(1).toArray()]);
  const parkedReasons = new Map(parked.filter((item) => item.name.startsWith('fuelFill.')).map((item) => [item.recordId, item.lastError ?? 'Not accepted by the server']));
  return { fills: fills.sort(byLatestFill), vehicles, parkedReasons };
}

/** The fuel log from the device, updated as it changes; undefined on the first read. */
export function useFuelLog(): FuelLog | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(() => readFuelLog(db), [db]);
}

/** Whether a fill was logged as a Fuel expense on this device; false for a new fill; undefined while reading. */
export function useLoggedAsExpense(fillId: string | undefined): boolean | undefined {
  const handle = useSyncHandle();
  return useLiveQuery(() => (fillId ? hasFuelExpense(handle, fillId) : false), [handle, fillId]);
}
