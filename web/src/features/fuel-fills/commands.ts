// What a driver does with fuel fills. Each call stores the record with its outbox item in one
// transaction (sync/commands.ts) and nudges the engine; components call only these.
import { deleteRecord, saveRecord, undoDelete } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import type { FuelFillContent, LocalFuelFill } from '@/sync/types';

/** Saves a new fill (no id) or an edit of one. */
export async function saveFuelFill(handle: SyncHandle, fill: FuelFillContent, id?: string): Promise<LocalFuelFill> {
  return saveRecord(handle.db, 'fuelFill', fill, id);
}

export async function deleteFuelFill(handle: SyncHandle, id: string): Promise<void> {
  await deleteRecord(handle.db, 'fuelFill', id);
}

export async function restoreFuelFill(handle: SyncHandle, before: LocalFuelFill): Promise<void> {
  await undoDelete(handle.db, 'fuelFill', before);
}
