import { DEFAULT_COURIER, entryFieldsBeforeCouriers } from './default-courier';
import { recordKindOf, serverCopyOf } from './records';
import { makeStatementCheckContent, TEST_USER_ID } from '@/testing/sync-handle';
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { syncFailure } from '@/testing/sync-failure';
import { WAIT } from '@/testing/wait';
import type { SyncApi, SyncFailure } from './api';
import { BASE_DELAY_MS } from './backoff';
import { deleteEntry, deleteStatementCheck, putSettings, saveEntry, saveStatementCheck, undoDelete, updateProfile } from './commands';
import { LocalDb } from './db';
import { SyncEngine } from './engine';
import { discardParked, MAX_ATTEMPTS, retryParked } from './outbox';
import type { SyncStatus } from './status';
import type { Change, EntryChange, EntryContent, StatementCheckContent, MutationResult, OutboxItem, ProfileData, PullPage } from './types';

/** A small in-memory stand-in for the server's sync API, with failure injection. */
class FakeServer implements SyncApi {
  records = new Map<string, Change>();
  docs = new Map<string, Change>();
  profile: ProfileData = {
    displayName: 'Sam', email: 'sam@example.com', bio: '', photoURL: null, role: 'free', isAnonymous: false,
    paymentConfig: { tiers: [{ stopCount: 110, rate: 198 }, { rate: 148 }] }, createdAt: 'c', updatedAt: 'u',
  };
  seen = new Map<string, MutationResult>();
  seq = 0;
  pushes: string[][] = [];
  failNext: SyncFailure[] = [];
  reject = new Map<string, string>(); // recordId -> message
  rejectFields = new Map<string, Record<string, string[]>>(); // recordId -> the refusal's problems by field

  async push(_clientId: string, items: OutboxItem[]): Promise<MutationResult[]> {
    this.pushes.push(items.map((i) => i.mutationId));
    const failure = this.failNext.shift();
    if (failure) throw syncFailure(failure);
    return items.map((item) => {
      const recorded = this.seen.get(item.mutationId);
      if (recorded) return recorded;
      let result: MutationResult = { id: item.mutationId, status: 'applied' };
      const refusal = this.reject.get(item.recordId);
      if (refusal) {
        const fields = this.rejectFields.get(item.recordId);
        result = { id: item.mutationId, status: 'rejected', code: 'validation', message: refusal, ...(fields ? { fields } : {}) };
      } else if (item.name === 'profile.update') {
        this.profile = { ...this.profile, ...(item.args as Partial<ProfileData>) };
        this.docs.set('profile', { kind: 'profile', id: 'u1', version: ++this.seq, deleted: false, data: this.profile });
      } else if (item.name === 'settings.put') {
        this.docs.set('settings', { kind: 'settings', id: 'u1', version: ++this.seq, deleted: false, data: { theme: item.args.theme as 'light', taxRegion: 'uk', quarters: 'standard', queryReminderDays: 14, updatedAt: 'u' } });
      } else if (item.name.endsWith('.put')) {
        // Like the server: a put after a delete of the same id changes nothing.
        if (!this.records.get(item.recordId)?.deleted) {
          const { id: _id, ...args } = item.args;
          this.records.set(item.recordId, {
            kind: recordKindOf(item.name), id: item.recordId, version: ++this.seq, deleted: false,
            data: { ...args, createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z' },
          } as Change);
        }
      } else {
        this.records.set(item.recordId, { kind: recordKindOf(item.name), id: item.recordId, version: ++this.seq, deleted: true } as Change);
      }
      this.seen.set(item.mutationId, result);
      return result;
    });
  }

  pulls = 0;

  async pull(cursor: number, limit: number): Promise<PullPage> {
    this.pulls += 1;
    const changes = [...this.records.values(), ...this.docs.values()].filter((c) => c.version > cursor).sort((a, b) => a.version - b.version);
    const page = changes.slice(0, limit);
    return { changes: page, cursor: page.at(-1)?.version ?? cursor, hasMore: changes.length > limit };
  }
}

const day = (stops: number, date = '2025-03-21'): EntryContent => ({ date, stops, extra: 0, notes: '', total: stops * 198, ...entryFieldsBeforeCouriers(TEST_USER_ID) });

let db: LocalDb;
let server: FakeServer;
let online: boolean;
let timers: { fn: () => void; ms: number }[];
let statuses: SyncStatus[];
let unauthenticated: number;

function engine(): SyncEngine {
  const e = new SyncEngine({
    db,
    api: server,
    isOnline: () => online,
    random: () => 0.5,
    setTimer: (fn, ms) => {
      timers.push({ fn, ms });
      return timers.length as unknown as ReturnType<typeof setTimeout>;
    },
    clearTimer: () => undefined,
    onUnauthenticated: () => (unauthenticated += 1),
  });
  e.subscribe((s) => statuses.push(s));
  return e;
}

/** Fires the most recent retry timer (not the 30 s periodic one). */
function fireRetry(): void {
  const index = timers.findLastIndex((t) => t.ms !== 30_000);
  expect(index, 'a retry is scheduled').toBeGreaterThanOrEqual(0);
  timers.splice(index, 1)[0]?.fn();
}

beforeEach(() => {
  db = new LocalDb(`test-${Math.random()}`, crypto.randomUUID());
  server = new FakeServer();
  online = true;
  timers = [];
  statuses = [];
  unauthenticated = 0;
});

afterEach(async () => {
  db.close();
  await db.delete();
});

const statement = (paid: number): StatementCheckContent => makeStatementCheckContent({ periodStart: '2025-03-16', periodEnd: '2025-03-22', paid, reference: 'INV-7' });

describe('SyncEngine', () => {
  it('pushes a local write, pulls it back and reports synced', async () => {
    const sync = engine();
    const entry = await saveEntry(db, day(120));
    expect((await db.entries.get(entry.id))?.syncState).toBe('pending');
    expect(await db.outbox.count()).toBe(1);

    expect(await sync.sync()).toBe(true);
    expect(await db.outbox.count()).toBe(0);
    const synced = await db.entries.get(entry.id);
    expect(synced?.syncState).toBe('synced');
    expect(serverCopyOf('entry', synced!)).toMatchObject({ stops: 120, version: 1 });
    expect(statuses.map((s) => s.state)).toEqual(['synced', 'syncing', 'synced']);
    expect(await db.getMeta('cursor', 0)).toBe(1);
  });

  it("marks a round trip asked for by the driver's save or Sync Data, and not a background pull (the badge shows only those)", async () => {
    const sync = engine();
    expect(await sync.sync()).toBe(true);
    await saveEntry(db, day(12));
    expect(await sync.sync({ byDriver: true })).toBe(true);
    expect(await sync.sync()).toBe(true);
    const syncing = statuses.filter((s) => s.state === 'syncing');
    expect(syncing).toEqual([{ state: 'syncing' }, { state: 'syncing', byDriver: true }, { state: 'syncing' }]);
  });

  it('tells its owner after each cycle that pushed and pulled everything, and only then (the receipt queue runs then)', async () => {
    let synced = 0;
    const sync = new SyncEngine({ db, api: server, isOnline: () => online, random: () => 0.5, setTimer: () => 0 as unknown as ReturnType<typeof setTimeout>, clearTimer: () => undefined, onSynced: () => (synced += 1) });
    expect(await sync.sync()).toBe(true);
    expect(synced).toBe(1);
    online = false;
    expect(await sync.sync()).toBe(false);
    online = true;
    await saveEntry(db, day(3));
    server.failNext = [{ kind: 'server', status: 503 }];
    expect(await sync.sync()).toBe(false);
    expect(synced).toBe(1);
    expect(await sync.sync()).toBe(true);
    expect(synced).toBe(2);
  });

  it('retries server errors with backoff and keeps the outbox', async () => {
    const sync = engine();
    await sync.start();
    await vi.waitFor(() => expect(statuses.at(-1)?.state).toBe('synced'), WAIT);
    await saveEntry(db, day(10));
    server.failNext = [{ kind: 'server', status: 503 }, { kind: 'server', status: 502 }];

    expect(await sync.sync()).toBe(false);
    expect(statuses.at(-1)?.state).toBe('error');
    const first = timers.filter((t) => t.ms !== 30_000);
    expect(first.at(-1)?.ms).toBe(Math.round(BASE_DELAY_MS * 0.75));
    expect((await db.outbox.toArray())[0]?.attempts).toBe(1);

    fireRetry();
    await vi.waitFor(() => expect(server.pushes).toHaveLength(2), WAIT);
    await vi.waitFor(() => expect(timers.filter((t) => t.ms !== 30_000).length).toBe(1), WAIT);
    expect(timers.filter((t) => t.ms !== 30_000)[0]?.ms).toBe(Math.round(2 * BASE_DELAY_MS * 0.75));

    fireRetry();
    await vi.waitFor(() => expect(statuses.at(-1)?.state).toBe('synced'), WAIT);
    expect(await db.outbox.count()).toBe(0);
    sync.stop();
  });

  it('keeps the outbox on 401 and waits for sign-in', async () => {
    const sync = engine();
    await saveEntry(db, day(10));
    server.failNext = [{ kind: 'unauthenticated' }];
    expect(await sync.sync()).toBe(false);
    expect(unauthenticated).toBe(1);
    const [item] = await db.outbox.toArray();
    expect(item).toMatchObject({ attempts: 0, parked: 0 });

    expect(await sync.sync()).toBe(false);
    expect(server.pushes).toHaveLength(1); // paused: nothing sent

    sync.resume();
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0), WAIT);
    expect(server.records.size).toBe(1);
  });

  it('keeps the outbox whole on 403 password-change-required and waits for a new password', async () => {
    const sync = engine();
    await saveEntry(db, day(10));
    await saveEntry(db, day(11));
    server.failNext = [{ kind: 'password-change' }];
    expect(await sync.sync()).toBe(false);
    expect(statuses.at(-1)).toEqual({ state: 'error', message: 'Choose a new password to sync your changes' });
    // Nothing parked, nothing counted, nothing dropped: a 403 here is not about the items.
    const items = await db.outbox.toArray();
    expect(items).toHaveLength(2);
    for (const item of items) expect(item).toMatchObject({ attempts: 0, parked: 0 });
    expect(unauthenticated).toBe(0);

    expect(await sync.sync()).toBe(false);
    expect(server.pushes).toHaveLength(1); // paused: nothing sent

    sync.resume();
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0), WAIT);
    expect(server.records.size).toBe(2);
  });

  it(`parks an item after ${MAX_ATTEMPTS} failed attempts and stops sending it`, async () => {
    const sync = engine();
    const entry = await saveEntry(db, day(10));
    server.failNext = Array.from({ length: MAX_ATTEMPTS }, () => ({ kind: 'server', status: 500 }) as SyncFailure);
    for (let i = 0; i < MAX_ATTEMPTS; i += 1) expect(await sync.sync()).toBe(false);
    const [item] = await db.outbox.toArray();
    expect(item).toMatchObject({ parked: 1, attempts: MAX_ATTEMPTS });
    expect((await db.entries.get(entry.id))?.syncState).toBe('parked');

    expect(await sync.sync()).toBe(true);
    expect(server.pushes).toHaveLength(MAX_ATTEMPTS); // the parked item was not sent again
    expect(statuses.at(-1)).toEqual({ state: 'error', message: '1 change could not be synced' });
  });

  it('a push quota (429 with Retry-After) waits as asked and never parks the items', async () => {
    const sync = engine();
    await saveEntry(db, day(10));
    void sync.start();
    const tooMany = { kind: 'server', status: 429, retryAfterMs: 45_000 } as SyncFailure;
    // One for the cycle start() began, which the first call below waits past, and one for each call.
    server.failNext = Array.from({ length: MAX_ATTEMPTS + 2 }, () => tooMany);
    for (let i = 0; i < MAX_ATTEMPTS + 1; i += 1) expect(await sync.sync()).toBe(false);
    const [item] = await db.outbox.toArray();
    expect(item).toMatchObject({ parked: 0, attempts: 0 });
    expect(timers.some((t) => t.ms >= 45_000 && t.ms !== 30_000)).toBe(true);

    expect(await sync.sync()).toBe(true);
    expect(await db.outbox.count()).toBe(0);
  });

  it('parks a rejected item without blocking the ones after it', async () => {
    const sync = engine();
    const bad = await saveEntry(db, day(10, '2025-03-20'));
    const good = await saveEntry(db, day(11, '2025-03-21'));
    server.reject.set(bad.id, 'Stops must be a whole number from 0 to 1000');

    expect(await sync.sync()).toBe(true);
    expect((await db.entries.get(good.id))?.syncState).toBe('synced');
    expect((await db.entries.get(bad.id))?.syncState).toBe('parked');
    const [parked] = await db.outbox.toArray();
    expect(parked).toMatchObject({ recordId: bad.id, parked: 1, lastError: 'Stops must be a whole number from 0 to 1000' });

    // Later writes keep flowing past the parked one.
    const later = await saveEntry(db, day(12, '2025-03-22'));
    expect(await sync.sync()).toBe(true);
    expect((await db.entries.get(later.id))?.syncState).toBe('synced');
  });

  it('keeps the problems a refusal names by field with the parked item, for the form and the panel', async () => {
    const sync = engine();
    const bad = await saveEntry(db, day(10, '2025-03-20'));
    const fields = { stops: ['Stops must be a whole number from 0 to 1000'], startTime: ['Start time must be a time written HH:MM'] };
    server.reject.set(bad.id, 'Stops must be a whole number from 0 to 1000; Start time must be a time written HH:MM');
    server.rejectFields.set(bad.id, fields);

    expect(await sync.sync()).toBe(true);
    const [parked] = await db.outbox.toArray();
    expect(parked).toMatchObject({ recordId: bad.id, parked: 1, fieldErrors: fields });
  });

  it('does not pull again for a poke whose cursor it already has (its own push pokes it too)', async () => {
    const sync = engine();
    await saveEntry(db, day(10, '2025-03-20'));
    expect(await sync.sync()).toBe(true);
    const pulled = server.pulls;
    const cursor = server.seq;

    // The poke of its own push, arriving while the cycle runs or after it: nothing new.
    await sync.poked(cursor);
    await sync.poked(cursor - 1);
    expect(server.pulls).toBe(pulled);

    // Another device wrote: the poke names a newer cursor, and the device pulls it.
    server.records.set('other', { kind: 'entry', id: 'other', version: ++server.seq, deleted: false, data: { ...day(3), createdAt: 'c', updatedAt: 'u' } } as Change);
    await sync.poked(server.seq);
    expect(server.pulls).toBe(pulled + 1);
    expect(await db.entries.get('other')).toBeDefined();

    // A poke naming no cursor (a stream that reconnected may have missed some) always syncs.
    await sync.poked(null);
    expect(server.pulls).toBe(pulled + 2);
  });

  it('pulls after the running cycle only when that cycle did not reach the poked cursor', async () => {
    const sync = engine();
    await saveEntry(db, day(10, '2025-03-20'));
    const running = sync.sync();
    const poke = sync.poked(1); // the own push's poke arrives mid-cycle
    expect(await running).toBe(true);
    expect(await poke).toBe(true);
    expect(server.pulls).toBe(1);
  });

  it('narrows a refused request down to the one item responsible', async () => {
    const sync = engine();
    const ids = [];
    for (let i = 0; i < 4; i += 1) ids.push((await saveEntry(db, day(i + 1, `2025-03-0${i + 1}`))).id);
    server.failNext = [
      { kind: 'refused', status: 413, message: 'Too large' },
      { kind: 'refused', status: 413, message: 'Too large' },
      { kind: 'refused', status: 413, message: 'Too large' },
    ];
    expect(await sync.sync()).toBe(true);
    const parked = await db.outbox.toArray();
    expect(parked).toHaveLength(1);
    expect(parked[0]).toMatchObject({ recordId: ids[0], parked: 1, lastError: 'Too large' });
    expect(server.records.size).toBe(3);
  });

  it('Retry sends a parked item again', async () => {
    const sync = engine();
    const entry = await saveEntry(db, day(10));
    server.reject.set(entry.id, 'No');
    await sync.sync();
    const [item] = await db.outbox.toArray();
    if (!item) throw new Error('expected a parked item');
    server.reject.clear();
    server.seen.clear(); // the fake forgets the refusal, as a fixed server would accept a new try
    await retryParked(db, item.seq!);
    expect((await db.entries.get(entry.id))?.syncState).toBe('pending');
    expect(await sync.sync()).toBe(true);
    expect((await db.entries.get(entry.id))?.syncState).toBe('synced');
  });

  it('Discard drops a never-synced entry and restores an edited one', async () => {
    const sync = engine();
    const fresh = await saveEntry(db, day(10, '2025-03-20'));
    const kept = await saveEntry(db, day(20, '2025-03-21'));
    await sync.sync(); // kept is on the server; fresh too
    await db.entries.delete(fresh.id);
    const brandNew = await saveEntry(db, day(30, '2025-03-22'));
    await saveEntry(db, { ...day(21, '2025-03-21') }, kept.id);
    server.reject.set(brandNew.id, 'No');
    server.reject.set(kept.id, 'No');
    await sync.sync();
    for (const item of await db.outbox.toArray()) await discardParked(db, item.seq!);

    expect(await db.outbox.count()).toBe(0);
    expect(await db.entries.get(brandNew.id)).toBeUndefined();
    expect(await db.entries.get(kept.id)).toMatchObject({ stops: 20, syncState: 'synced' });
  });

  it('stays offline without calling the server or counting attempts', async () => {
    const sync = engine();
    await saveEntry(db, day(10));
    online = false;
    expect(await sync.sync()).toBe(false);
    expect(statuses.at(-1)).toEqual({ state: 'pending', count: 1, offline: true });
    sync.setOnline(false);
    expect(statuses.at(-1)).toEqual({ state: 'offline' });
    expect(server.pushes).toHaveLength(0);
    expect((await db.outbox.toArray())[0]?.attempts).toBe(0);
    online = true;
    sync.setOnline(true);
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0), WAIT);
  });

  it('a cycle that completes after the network went away leaves the badge offline, not synced', async () => {
    const sync = engine();
    let answer: (() => void) | null = null;
    const pull = server.pull.bind(server);
    server.pull = async (cursor, limit) => {
      await new Promise<void>((resolve) => (answer = resolve));
      return pull(cursor, limit);
    };
    const cycle = sync.sync();
    // The pull's answer is already on its way when the browser goes offline.
    await vi.waitFor(() => expect(answer).not.toBe(null), WAIT);
    expect(statuses.at(-1)).toEqual({ state: 'syncing' });
    online = false;
    sync.setOnline(false);
    answer!();
    expect(await cycle).toBe(true);
    expect(statuses.at(-1)).toEqual({ state: 'offline' });
  });

  it('pulls other devices’ changes and tombstones, keeping unsent local edits', async () => {
    const sync = engine();
    const mine = await saveEntry(db, day(10, '2025-03-20'));
    const shared = await saveEntry(db, day(20, '2025-03-21'));
    await sync.sync();

    // Another device: edits `shared`, deletes `mine`, adds a new day.
    const sharedOnServer = server.records.get(shared.id) as EntryChange;
    server.records.set(shared.id, { ...sharedOnServer, version: ++server.seq, data: { ...sharedOnServer.data!, stops: 25 } });
    server.records.set(mine.id, { kind: 'entry', id: mine.id, version: ++server.seq, deleted: true });
    server.records.set('other', { kind: 'entry', id: 'other', version: ++server.seq, deleted: false, data: { ...day(5, '2025-03-22'), createdAt: 'x', updatedAt: 'x' } });
    // Meanwhile this device edits `shared` offline.
    await saveEntry(db, day(22, '2025-03-21'), shared.id);
    online = false;
    await sync.sync();
    online = true;
    // Pull only (the fake applies our push after, as the server would in arrival order).
    server.failNext = [];
    await sync.sync();

    expect((await db.entries.get(mine.id))?.deleted).toBe(1);
    expect(await db.entries.get('other')).toMatchObject({ stops: 5, syncState: 'synced' });
    expect(await db.entries.get(shared.id)).toMatchObject({ stops: 22, syncState: 'synced' });
  });

  it('a pulled tombstone keeps a parked local change marked parked', async () => {
    const sync = engine();
    const entry = await saveEntry(db, day(10));
    await sync.sync();
    await saveEntry(db, day(11), entry.id);
    server.reject.set(entry.id, 'No');
    await sync.sync(); // the edit is parked
    server.records.set(entry.id, { kind: 'entry', id: entry.id, version: ++server.seq, deleted: true });
    await sync.sync();
    expect(await db.entries.get(entry.id)).toMatchObject({ deleted: 1, syncState: 'parked' });
  });

  it('profile edits show at once, stay on top while unsent, and sync', async () => {
    const sync = engine();
    await updateProfile(db, { displayName: 'Sam Driver', bio: 'Van 2' });
    expect(await db.getDoc('profile')).toMatchObject({ patch: { displayName: 'Sam Driver' }, syncState: 'pending', server: null });
    expect(await sync.sync()).toBe(true);
    const synced = await db.getDoc('profile');
    expect(synced).toMatchObject({ syncState: 'synced', patch: {}, data: { displayName: 'Sam Driver', bio: 'Van 2', email: 'sam@example.com' } });

    // An edit that cannot be sent yet stays on top of the server copy.
    online = false;
    await updateProfile(db, { displayName: 'Samuel' });
    online = true;
    server.failNext = [{ kind: 'server', status: 503 }];
    await sync.sync();
    expect((await db.getDoc('profile'))?.data).toMatchObject({ displayName: 'Samuel', bio: 'Van 2' });
    await sync.sync();
    expect(await db.getDoc('profile')).toMatchObject({ syncState: 'synced', data: { displayName: 'Samuel' } });
  });

  it('settings sync and a discarded settings change falls back to the server copy', async () => {
    const sync = engine();
    await putSettings(db, { theme: 'light' });
    await sync.sync();
    expect((await db.getDoc('settings'))?.data).toMatchObject({ theme: 'light' });

    await putSettings(db, { theme: 'dark' });
    server.reject.set('settings', 'No');
    await sync.sync();
    expect(await db.getDoc('settings')).toMatchObject({ syncState: 'parked', data: { theme: 'dark' } });
    const [item] = await db.outbox.toArray();
    await discardParked(db, item!.seq!);
    expect(await db.getDoc('settings')).toMatchObject({ syncState: 'synced', data: { theme: 'light' } });
  });

  it('a delete reaches the server and comes back as a tombstone', async () => {
    const sync = engine();
    const entry = await saveEntry(db, day(10));
    await sync.sync();
    await deleteEntry(db, entry.id);
    expect((await db.entries.get(entry.id))?.deleted).toBe(1);
    await sync.sync();
    expect(server.records.get(entry.id)?.deleted).toBe(true);
    expect(await db.entries.get(entry.id)).toMatchObject({ deleted: 1, syncState: 'synced' });
  });

  it('a write during a running cycle triggers one more cycle', async () => {
    const sync = engine();
    await saveEntry(db, day(1, '2025-03-01'));
    const first = sync.sync();
    await saveEntry(db, day(2, '2025-03-02'));
    void sync.sync();
    await first;
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0), WAIT);
    expect(server.records.size).toBe(2);
  });

  it('a Sync Data that joins a running cycle answers once the cycle after it has finished', async () => {
    const sync = engine();
    await saveEntry(db, day(1, '2025-03-01'));
    const first = sync.sync();
    await saveEntry(db, day(2, '2025-03-02'));
    const asked = sync.sync({ byDriver: true });

    expect(await asked).toBe(true);
    // "Data synchronized successfully!" is shown now: the engine must be done, not syncing again.
    expect(statuses.at(-1)?.state).toBe('synced');
    expect(statuses).toContainEqual({ state: 'syncing', byDriver: true });
    expect(await db.outbox.count()).toBe(0);
    expect(server.records.size).toBe(2);
    expect(await first).toBe(true);
  });

  it('syncs statement checks like entries: put, edit, delete, and a second device sees each', async () => {
    const sync = engine();
    const check = await saveStatementCheck(db, statement(120_00));
    expect(await sync.sync()).toBe(true);
    expect(serverCopyOf('invoice', (await db.invoices.get(check.id))!)).toMatchObject({ paid: 120_00, version: 1 });

    const other = new LocalDb(`test-other-${Math.random()}`, crypto.randomUUID());
    const otherSync = new SyncEngine({ db: other, api: server, isOnline: () => true, setTimer: () => 0 as unknown as ReturnType<typeof setTimeout>, clearTimer: () => undefined });
    expect(await otherSync.sync()).toBe(true);
    expect(await other.invoices.get(check.id)).toMatchObject({ paid: 120_00, reference: 'INV-7', syncState: 'synced', deleted: 0 });

    await saveStatementCheck(db, { ...statement(130_00), stops: 70 }, check.id);
    expect(await sync.sync()).toBe(true);
    expect(await otherSync.sync()).toBe(true);
    expect(await other.invoices.get(check.id)).toMatchObject({ paid: 130_00, stops: 70 });

    await deleteStatementCheck(db, check.id);
    expect(await sync.sync()).toBe(true);
    expect(await otherSync.sync()).toBe(true);
    expect((await other.invoices.get(check.id))?.deleted).toBe(1);
    other.close();
    await other.delete();
  });

  it('undo of a delete not yet sent withdraws it: nothing is pushed and the entry is as it was', async () => {
    const sync = engine();
    const entry = await saveEntry(db, day(40));
    expect(await sync.sync()).toBe(true);
    online = false;
    const before = (await db.entries.get(entry.id))!;
    await deleteEntry(db, entry.id);
    expect((await db.entries.get(entry.id))?.deleted).toBe(1);

    expect(await undoDelete(db, 'entry', before)).toBe(entry.id);
    expect(await db.entries.get(entry.id)).toMatchObject({ deleted: 0, stops: 40, syncState: 'synced' });
    expect(await db.outbox.count()).toBe(0);
    online = true;
    expect(await sync.sync()).toBe(true);
    expect(server.records.get(entry.id)?.deleted).toBe(false);
  });

  it('undo of a delete the server already has brings the day back as a new record', async () => {
    const sync = engine();
    const entry = await saveEntry(db, { ...day(40), notes: 'Depot B' });
    expect(await sync.sync()).toBe(true);
    const before = (await db.entries.get(entry.id))!;
    await deleteEntry(db, entry.id);
    expect(await sync.sync()).toBe(true);

    const revivedId = await undoDelete(db, 'entry', before);
    expect(revivedId).not.toBe(entry.id);
    expect(await sync.sync()).toBe(true);
    expect(server.records.get(entry.id)?.deleted).toBe(true);
    expect(server.records.get(revivedId)).toMatchObject({ deleted: false, data: { stops: 40, notes: 'Depot B' } });
    const live = (await db.entries.toArray()).filter((e) => !e.deleted);
    expect(live.map((e) => e.id)).toEqual([revivedId]);
  });

  it('discarding a parked statement check restores the server copy', async () => {
    const sync = engine();
    const check = await saveStatementCheck(db, statement(100_00));
    expect(await sync.sync()).toBe(true);
    await saveStatementCheck(db, statement(999_00), check.id);
    server.reject.set(check.id, 'Paid must be at most £100,000.00');
    expect(await sync.sync()).toBe(true);
    const [parked] = await db.outbox.toArray();
    expect((await db.invoices.get(check.id))?.syncState).toBe('parked');

    await discardParked(db, parked!.seq!);
    expect(await db.invoices.get(check.id)).toMatchObject({ paid: 100_00, syncState: 'synced', deleted: 0 });
  });
});

describe('SyncEngine and record kinds it did not know before', () => {
  it('pulls again from the start once, when this app knows a kind the device never pulled', async () => {
    // The server holds a courier; an older app pulled past it (it left out the kind) to cursor 2.
    server.records.set(TEST_USER_ID, { kind: 'courier', id: TEST_USER_ID, version: 1, deleted: false, data: { ...DEFAULT_COURIER, createdAt: 'c', updatedAt: 'u' } });
    server.records.set('e1', { kind: 'entry', id: 'e1', version: 2, deleted: false, data: { ...day(120), createdAt: 'c', updatedAt: 'u' } });
    server.seq = 2;
    await db.setMeta('cursor', 2);
    const sync = engine();
    expect(await sync.sync()).toBe(true);
    expect((await db.couriers.get(TEST_USER_ID))?.name).toBe(DEFAULT_COURIER.name);
    expect(await db.entries.count()).toBe(1);
    expect(await db.getMeta('cursor', 0)).toBe(2);

    // From now on the cursor holds: a later pull asks only for what is new.
    const asked: number[] = [];
    const pull = server.pull.bind(server);
    server.pull = (cursor, limit) => (asked.push(cursor), pull(cursor, limit));
    expect(await sync.sync()).toBe(true);
    expect(asked).toEqual([2]);

    // An old tab still open on this database pulls (moving the cursor, leaving out what it does
    // not know): the next pull by this app starts again from 0.
    server.records.set('d1', { kind: 'deduction', id: 'd1', version: 3, deleted: false, data: { courierId: TEST_USER_ID, label: 'Van hire', amount: 19_500, repeat: 'weekly', from: '2025-03-02', to: null, purpose: 'vehicleHire', vehicleId: null, createdAt: 'c', updatedAt: 'u' } });
    server.seq = 3;
    await db.setMeta('cursor', 3);
    asked.length = 0;
    expect(await sync.sync()).toBe(true);
    expect(asked).toEqual([0]);
    expect((await db.deductions.get('d1'))?.label).toBe('Van hire');
  });
});
