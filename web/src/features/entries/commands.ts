// What a driver does with their days. Each call is the whole write: it prices the day, stores
// the entry with its outbox item in one transaction (sync/commands.ts), and nudges the engine.
import type { IdentifiedCard } from '@/lib/pay';
import { deleteEntry, saveEntry, undoDelete } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import type { EntryContent, LocalEntry } from '@/sync/types';
import { priceEditedDay, priceNewDay, type DayDraft } from './day-pricing';
import { withinTotalBound } from './entry-form-schema';

/** Logs a new day, priced with the card in force for its courier on its date (fixed from now on). */
export async function logDay(handle: SyncHandle, day: DayDraft, cards: readonly IdentifiedCard[]): Promise<LocalEntry> {
  const entry = await saveEntry(handle.db, withinTotalBound(priceNewDay(day, cards)));
  handle.requestSync();
  return entry;
}

/**
 * Edits a logged day: re-priced only when something that decides pay changed, then with the
 * card in force on its date; a notes-only edit keeps the total and card exactly.
 */
export async function editDay(handle: SyncHandle, id: string, saved: EntryContent, edited: DayDraft, cards: readonly IdentifiedCard[]): Promise<LocalEntry> {
  const entry = await saveEntry(handle.db, withinTotalBound(priceEditedDay(saved, edited, cards)), id);
  handle.requestSync();
  return entry;
}

export async function deleteDay(handle: SyncHandle, id: string): Promise<void> {
  await deleteEntry(handle.db, id);
  handle.requestSync();
}

/** Undo of a delete: the entry is back as it was (see undoDelete for a delete the server has). */
export async function restoreDay(handle: SyncHandle, before: LocalEntry): Promise<void> {
  await undoDelete(handle.db, 'entry', before);
  handle.requestSync();
}
