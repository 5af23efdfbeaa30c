// The driver's vehicles, as the expense form, the mileage log and the tax year read them.
// Shared here because expenses and mileage are separate features that both name vehicles.
import { useLiveQuery } from 'dexie-react-hooks';
import type { LocalDb } from '@/sync/db';
import type { LocalVehicle } from '@/sync/types';
import { useSyncHandle } from './use-sync';

/**
 * Every vehicle by name, deleted ones included when `withDeleted` (a deleted vehicle's logged
 * miles still count in its tax year).
 */
export async function readVehicles(db: LocalDb, withDeleted = false): Promise<LocalVehicle[]> {
  const vehicles = withDeleted ? await db.vehicles.toArray() : await db.vehicles.where('deleted').equals(0).toArray();
  return vehicles.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/** The live vehicles, updated as they change; undefined on the first read. */
export function useVehicles(): LocalVehicle[] | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(() => readVehicles(db), [db]);
}
