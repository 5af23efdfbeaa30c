import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEntry, TEST_USER_ID } from '@/testing/sync-handle';
import type { SyncApi } from './api';
import { deleteEntry, saveEntry, undoDelete } from './commands';
import { LocalDb } from './db';
import { entryFieldsBeforeCouriers } from './default-courier';
import { SyncEngine } from './engine';
import { discardParked } from './outbox';
import { contentOf, serverCopyOf, serverVersionOf } from './records';
import type { EntryChange, EntryContent, LocalEntry, MutationResult, OutboxItem, PullPage } from './types';

// The server's copy a record keeps for Discard (issue 30): a pulled record the device has not
// changed stores only the version, as its content is the server's; every local change keeps the
// server's content whole; a database written by an older app holds full copies, which read as before.

const ID = '0190a6e2-7c1d-7000-8000-0000000000e1';
const content = (stops: number, notes = ''): EntryContent => ({ date: '2025-03-21', stops, extra: 0, notes, total: stops * 198, ...entryFieldsBeforeCouriers(TEST_USER_ID) });
const stamps = { createdAt: '2025-03-21T18:00:00Z', updatedAt: '2025-03-21T18:00:00Z' };

/** The server's side: the changes it holds after the cursor, in order; every push refused (so parked, for Discard). */
class RefusingServer implements SyncApi {
  changes: EntryChange[] = [];
  push(_clientId: string, items: OutboxItem[]): Promise<MutationResult[]> {
    return Promise.resolve(items.map((item) => ({ id: item.mutationId, status: 'rejected' as const, code: 'validation', message: 'refused' })));
  }
  pull(cursor: number, limit: number): Promise<PullPage> {
    const after = this.changes.filter((c) => c.version > cursor);
    const page = after.slice(0, limit);
    return Promise.resolve({ changes: page, cursor: page.at(-1)?.version ?? cursor, hasMore: after.length > limit });
  }
}

let db: LocalDb;
let server: RefusingServer;

beforeEach(() => {
  db = new LocalDb(`server-copy-${crypto.randomUUID()}`, TEST_USER_ID);
  server = new RefusingServer();
});

afterEach(async () => {
  db.close();
  await db.delete();
});

/** One sync cycle: the local changes are refused and parked, then the server's changes pulled. */
async function pull(): Promise<void> {
  const engine = new SyncEngine({ db, api: server, isOnline: () => true, setTimer: () => 0 as unknown as ReturnType<typeof setTimeout>, clearTimer: () => undefined });
  expect(await engine.sync()).toBe(true);
}

const stored = async (): Promise<LocalEntry> => (await db.entries.get(ID))!;

describe("a record's copy of the server's content", () => {
  it('is stored as its version alone when pulled, and reads as the content at that version', async () => {
    server.changes.push({ kind: 'entry', id: ID, version: 4, deleted: false, data: { ...content(120, 'Depot'), ...stamps } });
    await pull();
    const record = await stored();
    expect(record.server).toBe(4);
    expect(serverVersionOf(record)).toBe(4);
    expect(serverCopyOf('entry', record)).toEqual({ ...content(120, 'Depot'), version: 4 });
  });

  it('is kept whole when the driver edits a pulled record, so Discard brings the pulled content back', async () => {
    server.changes.push({ kind: 'entry', id: ID, version: 4, deleted: false, data: { ...content(120), ...stamps } });
    await pull();
    await saveEntry(db, content(95, 'typed here'), ID);
    expect(serverCopyOf('entry', await stored())).toEqual({ ...content(120), version: 4 });
    // A later pull of the same record meets the unsent edit: the edit stays, the copy moves on.
    server.changes.push({ kind: 'entry', id: ID, version: 6, deleted: false, data: { ...content(130), ...stamps } });
    await pull();
    expect(contentOf('entry', await stored())).toEqual(content(95, 'typed here'));
    expect(serverCopyOf('entry', await stored())).toEqual({ ...content(130), version: 6 });
    const [item] = await db.outbox.toArray();
    await discardParked(db, item!.seq!);
    const back = await stored();
    expect({ ...contentOf('entry', back), syncState: back.syncState, deleted: back.deleted }).toEqual({ ...content(130), syncState: 'synced', deleted: 0 });
    expect(serverCopyOf('entry', back)).toEqual({ ...content(130), version: 6 });
  });

  it('stays right through a delete of a pulled record, discarded or taken back', async () => {
    server.changes.push({ kind: 'entry', id: ID, version: 2, deleted: false, data: { ...content(110), ...stamps } });
    await pull();
    const before = await stored();
    await deleteEntry(db, ID);
    const [item] = await db.outbox.toArray();
    await discardParked(db, item!.seq!);
    expect(await stored()).toMatchObject({ ...content(110), deleted: 0, syncState: 'synced' });
    expect(serverCopyOf('entry', await stored())).toEqual({ ...content(110), version: 2 });

    await deleteEntry(db, ID);
    expect(await undoDelete(db, 'entry', before)).toBe(ID);
    expect(await stored()).toMatchObject({ ...content(110), deleted: 0, syncState: 'synced' });
    expect(serverCopyOf('entry', await stored())).toEqual({ ...content(110), version: 2 });
  });

  it('written whole by an older app, reads, merges and discards as before', async () => {
    // The shape every database held before: the content twice, the server's copy with its version.
    await db.entries.put(makeEntry({ id: ID, ...content(95, 'typed here'), syncState: 'pending', server: { ...content(120), version: 4 } }));
    await db.outbox.add({ mutationId: crypto.randomUUID(), name: 'entry.put', args: { id: ID, ...content(95, 'typed here') }, recordId: ID, createdAt: 0, attempts: 5, lastError: 'refused', parked: 1 });
    expect(serverVersionOf(await stored())).toBe(4);
    expect(serverCopyOf('entry', await stored())).toEqual({ ...content(120), version: 4 });

    // A change the device already has (version 4) is skipped; the edit is kept.
    server.changes.push({ kind: 'entry', id: ID, version: 4, deleted: false, data: { ...content(120), ...stamps } });
    await pull();
    expect(contentOf('entry', await stored())).toEqual(content(95, 'typed here'));

    const [item] = await db.outbox.toArray();
    await discardParked(db, item!.seq!);
    expect(contentOf('entry', await stored())).toEqual(content(120));
    expect(serverCopyOf('entry', await stored())).toEqual({ ...content(120), version: 4 });
  });

  it('written whole by an older app for a synced record, is replaced by the version when a newer change is pulled', async () => {
    await db.entries.put(makeEntry({ id: ID, ...content(120), server: { ...content(120), version: 4 } }));
    server.changes.push({ kind: 'entry', id: ID, version: 5, deleted: false, data: { ...content(121), ...stamps } });
    await pull();
    expect((await stored()).server).toBe(5);
    expect(serverCopyOf('entry', await stored())).toEqual({ ...content(121), version: 5 });
  });
});
