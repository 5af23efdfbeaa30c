// What a driver does with their statement checks ("invoice checks"). Each call stores the check
// with its outbox item in one transaction (sync/commands.ts) and nudges the engine.
import { deleteInvoice, saveInvoice, undoDelete } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import type { LocalInvoice } from '@/sync/types';
import type { StatementFormValue } from './invoice-form-schema';

/** Saves a new check of one courier's statement (no id) or an edit of one. */
export async function saveCheck(handle: SyncHandle, courierId: string, check: StatementFormValue, id?: string): Promise<LocalInvoice> {
  const saved = await saveInvoice(handle.db, { ...check, courierId }, id);
  return saved;
}

export async function deleteCheck(handle: SyncHandle, id: string): Promise<void> {
  await deleteInvoice(handle.db, id);
}

export async function restoreCheck(handle: SyncHandle, before: LocalInvoice): Promise<void> {
  await undoDelete(handle.db, 'invoice', before);
}
