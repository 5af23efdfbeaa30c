// What a driver does with their invoice checks. Each call stores the check with its outbox item
// in one transaction (sync/commands.ts) and nudges the engine.
import { deleteInvoice, saveInvoice, undoDelete } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import { invoiceFieldsBeforeCouriers } from '@/sync/default-courier';
import type { InvoiceContent, LocalInvoice } from '@/sync/types';

export type InvoiceFigures = Pick<InvoiceContent, 'periodStart' | 'periodEnd' | 'paid' | 'stops' | 'reference'>;

/** Saves a new check (no id) or an edit of one. */
export async function saveCheck(handle: SyncHandle, check: InvoiceFigures, id?: string): Promise<LocalInvoice> {
  const saved = await saveInvoice(handle.db, { ...invoiceFieldsBeforeCouriers(handle.db.userId), ...check }, id);
  handle.requestSync();
  return saved;
}

export async function deleteCheck(handle: SyncHandle, id: string): Promise<void> {
  await deleteInvoice(handle.db, id);
  handle.requestSync();
}

export async function restoreCheck(handle: SyncHandle, before: LocalInvoice): Promise<void> {
  await undoDelete(handle.db, 'invoice', before);
  handle.requestSync();
}
