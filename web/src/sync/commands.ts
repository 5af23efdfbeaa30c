// Every local write: the record and its outbox item in one IndexedDB transaction, so a
// change is either fully recorded (and will be pushed) or not at all; once committed, each
// nudges sync (db.outboxChanged: the coordinator starts a push). Screens do not call these
// directly: each feature's commands wrap them with the pricing or checks the feature owns
// (features/entries/commands.ts, for one).
import type { Table } from 'dexie';
import type { LocalDb } from './db';
import { rematerializeDoc } from './docs';
import { newId } from './ids';
import { outboxItem, refreshRecordState } from './outbox';
import { contentOf, RECORD_KINDS, serverCopyOf, tableOf, type RecordContents, type RecordKind } from './records';
import type { EntryContent, StatementCheckContent, LocalEntry, LocalStatementCheck, LocalRecord, MtdQuarters, ProfilePatch, TaxRegion, Theme } from './types';

/** Creates (no id) or edits a record of any synced kind. Returns the stored record. */
export async function saveRecord<K extends RecordKind>(
  db: LocalDb,
  kind: K,
  content: RecordContents[K],
  id?: string,
): Promise<LocalRecord<RecordContents[K]>> {
  const stored = await db.transaction('rw', tableOf(db, kind), db.outbox, () => putRecord(db, kind, content, id));
  db.outboxChanged();
  return stored;
}

/** One record in a batch: its kind, its content and its id (none for a new record). */
export type RecordWrite = { [K in RecordKind]: { kind: K; content: RecordContents[K]; id?: string | undefined } }[RecordKind];

/**
 * Stores several records, of any kinds, each with its outbox item, in ONE transaction: all of
 * them or none (a new courier with its first card, the days a rate change re-prices). Items
 * go out in the given order, so a record is pushed after one it points at.
 */
export function saveRecords(db: LocalDb, writes: readonly RecordWrite[]): Promise<LocalRecord<RecordContents[RecordKind]>[]> {
  return readThenSave(db, { reads: [], kinds: writes.map((write) => write.kind) }, () => Promise.resolve(writes));
}

/**
 * saveRecords with the writes decided from what `decide` reads, in the SAME transaction: what
 * it read cannot change before they are stored, and the writes are all stored or none (a query
 * made from a check, with the check marked disputed). `reads`: the tables it reads beyond those
 * of `kinds`, the kinds it may write. Sync is nudged once, after the commit, never from inside.
 */
export async function readThenSave(
  db: LocalDb,
  scope: { reads: readonly Table[]; kinds: readonly RecordKind[] },
  decide: () => Promise<readonly RecordWrite[]>,
): Promise<LocalRecord<RecordContents[RecordKind]>[]> {
  const tables = [...new Set([...scope.reads, ...scope.kinds.map((kind) => tableOf(db, kind))])];
  const stored = await db.transaction('rw', [...tables, db.outbox], async () => {
    const records: LocalRecord<RecordContents[RecordKind]>[] = [];
    for (const write of await decide()) records.push(await putRecord(db, write.kind, write.content, write.id));
    return records;
  });
  if (stored.length > 0) db.outboxChanged();
  return stored;
}

/** The write itself, inside a caller's transaction over the kind's table and the outbox. */
async function putRecord<K extends RecordKind>(db: LocalDb, kind: K, content: RecordContents[K], id?: string): Promise<LocalRecord<RecordContents[K]>> {
  const table = tableOf(db, kind);
  const now = new Date().toISOString();
  const fields = contentOf(kind, content);
  const existing = id ? await table.get(id) : undefined;
  const record = {
    ...fields,
    id: existing?.id ?? id ?? newId(),
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
    deleted: 0,
    syncState: 'pending',
    // The content changes here, so a version alone no longer stands for the server's copy.
    server: existing ? serverCopyOf(kind, existing) : null,
  } as LocalRecord<RecordContents[K]>;
  await table.put(record);
  await db.outbox.add(outboxItem(RECORD_KINDS[kind].put, record.id, { id: record.id, ...fields }));
  return record;
}

/** Deletes a record: a tombstone on the device at once, pushed like any other change. */
export async function deleteRecord(db: LocalDb, kind: RecordKind, id: string): Promise<void> {
  await deleteRecords(db, [{ kind, id }]);
}

/** Deletes several records in ONE transaction (a courier with its cards and deductions). */
export async function deleteRecords(db: LocalDb, targets: readonly { kind: RecordKind; id: string }[]): Promise<void> {
  const tables = [...new Set(targets.map((target) => tableOf(db, target.kind)))];
  const deleted = await db.transaction('rw', [...tables, db.outbox], async () => {
    let count = 0;
    for (const { kind, id } of targets) {
      const table = tableOf(db, kind);
      const existing = await table.get(id);
      if (!existing || existing.deleted) continue;
      await table.put({ ...existing, deleted: 1, syncState: 'pending', updatedAt: new Date().toISOString() });
      await db.outbox.add(outboxItem(RECORD_KINDS[kind].remove, id, { id }));
      count += 1;
    }
    return count;
  });
  if (deleted > 0) db.outboxChanged();
}

/**
 * Takes a delete back. While the delete is still on the device it is simply withdrawn (the
 * user's explicit action) and the record is as it was. Once the server has it, the server's
 * tombstone wins over any later edit of that id (so a late edit from another device cannot
 * resurrect a deleted day): the record comes back as a new record with the same content.
 * Returns the id the record now has.
 */
export async function undoDelete<K extends RecordKind>(
  db: LocalDb,
  kind: K,
  before: LocalRecord<RecordContents[K]>,
): Promise<string> {
  const table = tableOf(db, kind);
  // Every synced table: refreshRecordState looks the record up across the kinds.
  const withdrawn = await db.transaction('rw', db.syncTables, async () => {
    const items = await db.outbox.where('recordId').equals(before.id).sortBy('seq');
    const last = items.at(-1);
    if (!last || last.name !== RECORD_KINDS[kind].remove) return false;
    await db.outbox.delete(last.seq!);
    const current = await table.get(before.id);
    const record = current ?? before;
    // `before`'s content goes back: the server's copy is kept whole in case it differs from it.
    await table.put({ ...record, ...contentOf(kind, before), deleted: 0, server: serverCopyOf(kind, record) });
    await refreshRecordState(db, before.id);
    return true;
  });
  if (withdrawn) {
    db.outboxChanged(); // the status's count of changes waiting goes down
    return before.id;
  }
  const revived = await saveRecord(db, kind, contentOf(kind, before));
  return revived.id;
}

export function saveEntry(db: LocalDb, content: EntryContent, id?: string): Promise<LocalEntry> {
  return saveRecord(db, 'entry', content, id);
}

export function deleteEntry(db: LocalDb, id: string): Promise<void> {
  return deleteRecord(db, 'entry', id);
}

export function saveStatementCheck(db: LocalDb, content: StatementCheckContent, id?: string): Promise<LocalStatementCheck> {
  return saveRecord(db, 'invoice', content, id);
}

export function deleteStatementCheck(db: LocalDb, id: string): Promise<void> {
  return deleteRecord(db, 'invoice', id);
}

/** A profile edit (display name, bio or payment tiers), kept on the device until sent. */
export async function updateProfile(db: LocalDb, patch: ProfilePatch): Promise<void> {
  await db.transaction('rw', db.docs, db.outbox, async () => {
    await db.outbox.add(outboxItem('profile.update', 'profile', { ...patch }));
    await rematerializeDoc(db, 'profile');
  });
  db.outboxChanged();
}

/** One setting or more; the server keeps the ones a put leaves out (an older app knows only the theme). */
export async function putSettings(db: LocalDb, settings: { theme?: Theme; taxRegion?: TaxRegion; quarters?: MtdQuarters; queryReminderDays?: number }): Promise<void> {
  await db.transaction('rw', db.docs, db.outbox, async () => {
    await db.outbox.add(outboxItem('settings.put', 'settings', { ...settings }));
    await rematerializeDoc(db, 'settings');
  });
  db.outboxChanged();
}
