// Every local write: the record and its outbox item in one IndexedDB transaction, so a
// change is either fully recorded (and will be pushed) or not at all.
import type { LocalDb } from './db';
import { isDocRecord, rematerializeDoc } from './docs';
import type { EntryContent, LocalEntry, MutationName, OutboxItem, ProfilePatch, Theme } from './types';
import { newId } from './ids';

function outboxItem(name: MutationName, recordId: string, args: Record<string, unknown>): OutboxItem {
  return { mutationId: newId(), name, args, recordId, createdAt: Date.now(), attempts: 0, lastError: null, parked: 0 };
}

/** Creates (no id) or edits an entry. Returns the stored record. */
export async function saveEntry(db: LocalDb, content: EntryContent, id?: string): Promise<LocalEntry> {
  const now = new Date().toISOString();
  return db.transaction('rw', db.entries, db.outbox, async () => {
    const existing = id ? await db.entries.get(id) : undefined;
    const entry: LocalEntry = {
      id: existing?.id ?? id ?? newId(),
      ...content,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
      deleted: 0,
      syncState: 'pending',
      server: existing?.server ?? null,
    };
    await db.entries.put(entry);
    await db.outbox.add(outboxItem('entry.put', entry.id, { id: entry.id, ...content }));
    return entry;
  });
}

export async function deleteEntry(db: LocalDb, id: string): Promise<void> {
  await db.transaction('rw', db.entries, db.outbox, async () => {
    const existing = await db.entries.get(id);
    if (!existing || existing.deleted) return;
    await db.entries.put({ ...existing, deleted: 1, syncState: 'pending', updatedAt: new Date().toISOString() });
    await db.outbox.add(outboxItem('entry.delete', id, { id }));
  });
}

/** A profile edit (display name, bio or payment tiers), kept on the device until sent. */
export async function updateProfile(db: LocalDb, patch: ProfilePatch): Promise<void> {
  await db.transaction('rw', db.docs, db.outbox, async () => {
    await db.outbox.add(outboxItem('profile.update', 'profile', { ...patch }));
    await rematerializeDoc(db, 'profile');
  });
}

export async function putSettings(db: LocalDb, settings: { theme: Theme }): Promise<void> {
  await db.transaction('rw', db.docs, db.outbox, async () => {
    await db.outbox.add(outboxItem('settings.put', 'settings', { ...settings }));
    await rematerializeDoc(db, 'settings');
  });
}

/** Gives a parked item another go. */
export async function retryParked(db: LocalDb, seq: number): Promise<void> {
  await db.transaction('rw', db.entries, db.outbox, db.docs, async () => {
    const item = await db.outbox.get(seq);
    if (!item) return;
    await db.outbox.update(seq, { parked: 0, attempts: 0, lastError: null });
    await refreshRecordState(db, item.recordId);
  });
}

/**
 * The user gives up a change that cannot be sent. The record goes back to what the server
 * last confirmed, or disappears if the server never had it.
 */
export async function discardParked(db: LocalDb, seq: number): Promise<void> {
  await db.transaction('rw', db.entries, db.outbox, db.docs, async () => {
    const item = await db.outbox.get(seq);
    if (!item) return;
    await db.outbox.delete(seq);
    if (isDocRecord(item.recordId)) {
      await rematerializeDoc(db, item.recordId);
      return;
    }
    const others = await db.outbox.where('recordId').equals(item.recordId).count();
    const entry = await db.entries.get(item.recordId);
    if (!entry || others > 0) {
      await refreshRecordState(db, item.recordId);
      return;
    }
    if (entry.server) {
      const { version: _version, ...content } = entry.server;
      await db.entries.put({ ...entry, ...content, deleted: 0, syncState: 'synced' });
    } else {
      await db.entries.delete(entry.id);
    }
  });
}

/** Recomputes a record's badge from its outbox items: parked beats pending beats synced. */
export async function refreshRecordState(db: LocalDb, recordId: string): Promise<void> {
  if (isDocRecord(recordId)) {
    await rematerializeDoc(db, recordId);
    return;
  }
  const entry = await db.entries.get(recordId);
  if (!entry) return;
  const items = await db.outbox.where('recordId').equals(recordId).toArray();
  const syncState = items.some((i) => i.parked) ? 'parked' : items.length > 0 ? 'pending' : 'synced';
  if (entry.syncState !== syncState) await db.entries.update(recordId, { syncState });
}
