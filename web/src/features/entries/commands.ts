// What a driver does with their days. Each call is the whole write: it prices the day, stores
// the entry with its outbox item in one transaction (sync/commands.ts), and nudges the engine.
import { dayMiles } from '@/core/mileage/day-miles';
import type { IdentifiedCard } from '@/core/pay/pay';
import { deleteEntry, deleteRecords, saveRecords, undoDelete, type RecordWrite } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import type { LocalDb } from '@/sync/db';
import { contentOf } from '@/sync/records';
import type { EntryContent, LocalEntry, LocalMileage } from '@/sync/types';
import { priceEditedDay, priceNewDay, type DayDraft } from '@/core/pay/day-pricing';
import { MAX_NOTES_CHARS, withinTotalBound } from './entry-form-schema';
import { mergedDay, survivorOf } from './same-day';

/** The van's odometer on a day, as the day form takes it (issue 26). */
export interface DayOdometer {
  vehicleId: string;
  odometerStart: number;
  odometerEnd: number;
  /** Home to depot and back today (twice the vehicle's commute, unless changed for the day). */
  dayCommute: number;
}

/**
 * The mileage record of `vehicleId` on `date`: one day in one vehicle is one record, so the day
 * form updates the one there is (made by the day form or typed on the mileage tab) rather than
 * adding a second that would count the miles twice. The oldest, if there were ever two.
 */
export async function dayMileage(db: LocalDb, date: string, vehicleId: string): Promise<LocalMileage | undefined> {
  const onDate = await db.mileage.where('date').equals(date).toArray();
  return onDate.filter((record) => record.deleted === 0 && record.vehicleId === vehicleId).sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1))[0];
}

/** The write of a day's mileage record, read inside the caller's transaction. */
async function mileageWrite(db: LocalDb, day: Pick<EntryContent, 'date' | 'courierId'>, odometer: DayOdometer): Promise<RecordWrite> {
  const miles = dayMiles(odometer.odometerStart, odometer.odometerEnd, odometer.dayCommute);
  if (!miles) throw new RangeError('The odometer readings cannot make a day');
  const existing = await dayMileage(db, day.date, odometer.vehicleId);
  return {
    kind: 'mileage',
    id: existing?.id,
    content: { date: day.date, vehicleId: odometer.vehicleId, courierId: day.courierId, ...miles, note: existing?.note ?? '' },
  };
}

/** Stores the day and, with readings, its mileage record: both with their outbox items in ONE transaction. */
async function storeDay(db: LocalDb, content: EntryContent, id: string | undefined, odometer: DayOdometer | null): Promise<LocalEntry> {
  if (!odometer) return (await saveRecords(db, [{ kind: 'entry', id, content }]))[0] as LocalEntry;
  return db.transaction('rw', db.entries, db.mileage, db.outbox, async () => {
    const miles = await mileageWrite(db, content, odometer);
    const [entry] = await saveRecords(db, [{ kind: 'entry', id, content }, miles]);
    return entry as LocalEntry;
  });
}

/**
 * Logs a new day, priced with the card in force for its courier on its date (fixed from now
 * on); with the van's odometer, its mileage record is written or updated in the same transaction.
 */
export async function logDay(handle: SyncHandle, day: DayDraft, cards: readonly IdentifiedCard[], odometer: DayOdometer | null = null): Promise<LocalEntry> {
  const entry = await storeDay(handle.db, withinTotalBound(priceNewDay(day, cards)), undefined, odometer);
  return entry;
}

/**
 * Edits a logged day: re-priced only when something that decides pay changed, then with the
 * card in force on its date; a notes-only edit keeps the total and card exactly. With the van's
 * odometer, that day's mileage record is updated (or written) in the same transaction.
 */
export async function editDay(
  handle: SyncHandle,
  id: string,
  saved: EntryContent,
  edited: DayDraft,
  cards: readonly IdentifiedCard[],
  odometer: DayOdometer | null = null,
): Promise<LocalEntry> {
  const entry = await storeDay(handle.db, withinTotalBound(priceEditedDay(saved, edited, cards)), id, odometer);
  return entry;
}

/**
 * Deletes a day. Its mileage record stays: the miles were driven whether or not the day is kept
 * (a day logged twice, or on the wrong courier), and the mileage log is where they are corrected.
 * Returns how many mileage records that date keeps, so the driver is told rather than left with
 * miles they did not expect.
 */
export async function deleteDay(handle: SyncHandle, id: string): Promise<{ mileageKept: number }> {
  const { db } = handle;
  const mileageKept = await db.transaction('rw', db.entries, db.mileage, db.outbox, async () => {
    const entry = await db.entries.get(id);
    await deleteEntry(db, id);
    if (!entry) return 0;
    return db.mileage.where('date').equals(entry.date).filter((record) => record.deleted === 0).count();
  });
  return { mileageKept };
}

/** Undo of a delete: the entry is back as it was (see undoDelete for a delete the server has). */
export async function restoreDay(handle: SyncHandle, before: LocalEntry): Promise<void> {
  await undoDelete(handle.db, 'entry', before);
}

/** The live days already logged for `courierId` on `date` (but `exceptId`, the day being edited), oldest first. */
export async function sameDayEntries(db: LocalDb, courierId: string, date: string, exceptId?: string): Promise<LocalEntry[]> {
  const onDate = await db.entries.where('[deleted+date]').equals([0, date]).toArray();
  return onDate.filter((entry) => entry.courierId === courierId && entry.id !== exceptId).sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
}

/** What a merge or a keep-both changed, so Undo can put it back. */
export interface SameDayChange {
  /** Each entry rewritten, as it was before. */
  rewritten: LocalEntry[];
  /** Each entry deleted, as it was before. */
  deleted: LocalEntry[];
}

/** The still-live entries among `ids`, read inside the caller's transaction. */
async function liveOf(db: LocalDb, ids: readonly string[]): Promise<LocalEntry[]> {
  const found = await db.entries.bulkGet([...ids]);
  return found.filter((entry): entry is LocalEntry => entry !== undefined && entry.deleted === 0);
}

/**
 * The same day logged more than once becomes one day, in ONE transaction through the outbox:
 * the entry with the smallest id takes the figures of `chosenId` (the driver's pick) and every
 * double's notes, and the others are deleted (tombstones every device receives). Two devices
 * merging the same day keep the same entry, so nothing is lost either way. Entries deleted
 * since the choice was shown are left out.
 */
export async function mergeDoubles(handle: SyncHandle, ids: readonly string[], chosenId: string): Promise<SameDayChange> {
  const { db } = handle;
  const change = await db.transaction('rw', db.entries, db.outbox, async () => {
    const live = await liveOf(db, ids);
    if (live.length < 2) return { rewritten: [], deleted: [] };
    const survivor = survivorOf(live);
    const chosen = live.find((entry) => entry.id === chosenId) ?? survivor;
    const contents = live.map((entry) => contentOf('entry', entry));
    const merged = mergedDay(contents, contentOf('entry', chosen), MAX_NOTES_CHARS);
    const others = live.filter((entry) => entry.id !== survivor.id);
    await saveRecords(db, [{ kind: 'entry', id: survivor.id, content: merged }]);
    await deleteRecords(
      db,
      others.map((entry) => ({ kind: 'entry' as const, id: entry.id })),
    );
    return { rewritten: [survivor], deleted: others };
  });
  return change;
}

/**
 * The doubles are separate shifts after all: each but the one with the smallest id is marked
 * so, in ONE transaction, and the day is never flagged again on any device.
 */
export async function keepAsShifts(handle: SyncHandle, ids: readonly string[]): Promise<SameDayChange> {
  const { db } = handle;
  const change = await db.transaction('rw', db.entries, db.outbox, async () => {
    const live = await liveOf(db, ids);
    if (live.length < 2) return { rewritten: [], deleted: [] };
    const survivor = survivorOf(live);
    const marked = live.filter((entry) => entry.id !== survivor.id && !entry.separateShift);
    await saveRecords(
      db,
      marked.map((entry) => ({ kind: 'entry' as const, id: entry.id, content: { ...contentOf('entry', entry), separateShift: true } })),
    );
    return { rewritten: marked, deleted: [] };
  });
  return change;
}

/** Undo of a merge or a keep-both: each rewritten entry gets its old content back, each deleted one returns. */
export async function undoSameDayChange(handle: SyncHandle, change: SameDayChange): Promise<void> {
  const { db } = handle;
  await db.transaction('rw', db.syncTables, async () => {
    await saveRecords(
      db,
      change.rewritten.map((entry) => ({ kind: 'entry' as const, id: entry.id, content: contentOf('entry', entry) })),
    );
    for (const entry of change.deleted) await undoDelete(db, 'entry', entry);
  });
}
