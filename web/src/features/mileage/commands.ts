// What a driver does with vehicles and the mileage log. Each call stores the record with its
// outbox item in one transaction (sync/commands.ts) and nudges the engine; components call only these.
import { deleteRecord, saveRecord, undoDelete } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import type { LocalMileage, LocalVehicle, MileageContent, VehicleContent } from '@/sync/types';

/** Saves a new vehicle (no id) or an edit of one. */
export async function saveVehicle(handle: SyncHandle, vehicle: VehicleContent, id?: string): Promise<LocalVehicle> {
  const saved = await saveRecord(handle.db, 'vehicle', vehicle, id);
  return saved;
}

/** A deleted vehicle's logged miles stay in the log and still count (mileage-claim takes deleted vehicles). */
export async function deleteVehicle(handle: SyncHandle, id: string): Promise<void> {
  await deleteRecord(handle.db, 'vehicle', id);
}

export async function restoreVehicle(handle: SyncHandle, before: LocalVehicle): Promise<void> {
  await undoDelete(handle.db, 'vehicle', before);
}

/** Saves a new day of mileage (no id) or an edit of one. */
export async function saveMileage(handle: SyncHandle, mileage: MileageContent, id?: string): Promise<LocalMileage> {
  const saved = await saveRecord(handle.db, 'mileage', mileage, id);
  return saved;
}

export async function deleteMileage(handle: SyncHandle, id: string): Promise<void> {
  await deleteRecord(handle.db, 'mileage', id);
}

export async function restoreMileage(handle: SyncHandle, before: LocalMileage): Promise<void> {
  await undoDelete(handle.db, 'mileage', before);
}
