// What a driver does with expenses and their receipt photos. Each call stores the change with its
// outbox item in one transaction (sync/commands.ts, through sync/receipts.ts for the photos) and
// nudges the engine; photos upload after the next good sync (sync/receipts.ts's queue).
import { deleteRecord, undoDelete } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import { contentOf } from '@/sync/records';
import { retryReceipt, saveExpenseWithReceipts, type NewReceipt } from '@/sync/receipts';
import type { ExpenseContent, LocalExpense } from '@/sync/types';

/** Photos an edit adds (downscaled, not stored yet) and the stored ones the driver took off. */
export interface ReceiptChanges {
  added: readonly NewReceipt[];
  removed: readonly string[];
}

const NO_CHANGES: ReceiptChanges = { added: [], removed: [] };

/** Saves a new expense (no id) or an edit of one, with its new photos, in one transaction. */
export async function saveExpense(handle: SyncHandle, expense: ExpenseContent, id?: string, photos: ReceiptChanges = NO_CHANGES): Promise<LocalExpense> {
  const saved = await saveExpenseWithReceipts(handle.db, expense, id, photos.added, photos.removed);
  return saved;
}

/**
 * Deletes an expense. Its photos stay on the device (and still upload) until the server has the
 * delete, so Undo brings the expense back with them; sync/receipts.ts drops them after that.
 */
export async function deleteExpense(handle: SyncHandle, id: string): Promise<void> {
  await deleteRecord(handle.db, 'expense', id);
}

/** Undo of a delete: the expense is back as it was, listing the same photos. */
export async function restoreExpense(handle: SyncHandle, before: LocalExpense): Promise<void> {
  await undoDelete(handle.db, 'expense', before);
}

/** "Remove photo": the driver's own discard of one photo (say, one the server refused). */
export async function removeReceipt(handle: SyncHandle, expense: LocalExpense, photoId: string): Promise<void> {
  const content = contentOf('expense', expense);
  await saveExpense(handle, { ...content, receipts: content.receipts.filter((id) => id !== photoId) }, expense.id, { added: [], removed: [photoId] });
}

/** "Try again" on a refused photo: it waits again and goes after the next sync. */
export async function retryReceiptUpload(handle: SyncHandle, photoId: string): Promise<void> {
  await retryReceipt(handle.db, photoId);
}
