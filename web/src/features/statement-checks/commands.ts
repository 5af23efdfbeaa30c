// What a driver does with their statement checks (the wire kind `invoice`). Each call stores the check
// with its outbox item in one transaction (sync/commands.ts) and nudges the engine.
import { deleteStatementCheck, saveStatementCheck, undoDelete } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import type { LocalStatementCheck } from '@/sync/types';
import type { StatementFormValue } from './statement-check-form-schema';

/** Saves a new check of one courier's statement (no id) or an edit of one. */
export async function saveCheck(handle: SyncHandle, courierId: string, check: StatementFormValue, id?: string): Promise<LocalStatementCheck> {
  const saved = await saveStatementCheck(handle.db, { ...check, courierId }, id);
  return saved;
}

export async function deleteCheck(handle: SyncHandle, id: string): Promise<void> {
  await deleteStatementCheck(handle.db, id);
}

export async function restoreCheck(handle: SyncHandle, before: LocalStatementCheck): Promise<void> {
  await undoDelete(handle.db, 'invoice', before);
}
