import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { readVehicles } from '@/lib/sync-react/use-vehicles';
import type { LocalDb } from '@/sync/db';
import type { LocalMileage, LocalVehicle } from '@/sync/types';

/** Latest day first; two records of one day, the later-made first. */
export function byLatestDay(a: LocalMileage, b: LocalMileage): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id.localeCompare(b.id);
}

export interface MileageLog {
  /** Every live record, latest day first. */
  records: LocalMileage[];
  /** Every vehicle the log may name, deleted ones included (their miles still count). */
  vehicles: LocalVehicle[];
  /** Why the server refused a record's change, by record id (shown on the record, as on entries). */
  parkedReasons: Map<string, string>;
}

export async function readMileageLog(db: LocalDb): Promise<MileageLog> {
  const [records, vehicles, parked] = await Promise.all([
    db.mileage.where('deleted').equals(0).toArray(),
    readVehicles(db, true),
    db.outbox.where('parked').equals(1).toArray(),
  ]);
  const parkedReasons = new Map(parked.filter((item) => item.name.startsWith('mileage.')).map((item) => [item.recordId, item.lastError ?? 'Not accepted by the server']));
  return { records: records.sort(byLatestDay), vehicles, parkedReasons };
}

/** The mileage log from the device, updated as it changes; undefined on the first read. */
export function useMileageLog(): MileageLog | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(() => readMileageLog(db), [db]);
}
