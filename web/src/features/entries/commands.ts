// What a driver does with their days. Each call is the whole write: it prices the day, stores
// the entry with its outbox item in one transaction (sync/commands.ts), and nudges the engine.
import { payFor, type PayTier } from '@/lib/pay';
import { entryFieldsBeforeCouriers } from '@/sync/default-courier';
import { deleteEntry, saveEntry, undoDelete } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import type { EntryContent, LocalEntry } from '@/sync/types';
import type { EntryFormValue } from './entry-form-schema';

/** The day as stored: its total is the stops at the driver's tiers plus extra, fixed when saved. */
export function priceDay(day: EntryFormValue, tiers: readonly PayTier[], userId: string): EntryContent {
  const { date, stops, extra, notes } = day;
  return { date, stops, extra, notes, total: payFor(tiers, stops) + extra, ...entryFieldsBeforeCouriers(userId) };
}

/** Logs a new day (no id) or edits one, priced with `tiers` (PRODUCT.md: recomputed when edited). */
export async function saveDay(handle: SyncHandle, day: EntryFormValue, tiers: readonly PayTier[], id?: string): Promise<LocalEntry> {
  const entry = await saveEntry(handle.db, priceDay(day, tiers, handle.db.userId), id);
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
