// What a driver does with a courier's deductions. Each call stores the deduction with its outbox
// item in one transaction (sync/commands.ts) and nudges the engine.
import { deleteRecord, saveRecord, undoDelete } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import type { DeductionContent, LocalDeduction } from '@/sync/types';

/** Saves a new deduction (no id) or an edit of one. */
export async function saveDeduction(handle: SyncHandle, deduction: DeductionContent, id?: string): Promise<LocalDeduction> {
  const saved = await saveRecord(handle.db, 'deduction', deduction, id);
  return saved;
}

export async function deleteDeduction(handle: SyncHandle, id: string): Promise<void> {
  await deleteRecord(handle.db, 'deduction', id);
}

/** Undo of a delete: the deduction is back as it was. */
export async function restoreDeduction(handle: SyncHandle, before: LocalDeduction): Promise<void> {
  await undoDelete(handle.db, 'deduction', before);
}
