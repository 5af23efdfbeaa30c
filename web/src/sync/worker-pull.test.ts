// The pull worker's protocol (worker-pull.ts): the tab's side and the worker's side joined by a
// real MessageChannel (every message structured-cloned, as between a tab and its worker), each
// side with its own connection to the same fake-indexeddb database, as in the browser.
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { TEST_USER_ID } from '@/testing/sync-handle';
import { syncFailure } from '@/testing/sync-failure';
import { WAIT } from '@/testing/wait';
import { syncFailureOf, type SyncApi } from './api';
import { saveEntry } from './commands';
import { entryFieldsBeforeCouriers } from './default-courier';
import { LocalDb } from './db';
import { SyncEngine } from './engine';
import { pullAll } from './pull';
import type { SyncStatus } from './status';
import type { Change, MutationResult, PullPage } from './types';
import { servePulls, workerPull, type PullReply, type PullRequest, type PullWorker, type Port } from './worker-pull';

const stamp = { createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z' };

/** A server of `count` entries in pages of `size`; `fail` makes the pull from that cursor fail once. */
function server(count: number, size: number, fail: { at: number; error: Error } | null = null): SyncApi & { pulls: number[] } {
  const changes: Change[] = Array.from({ length: count }, (_, i) => ({
    kind: 'entry',
    id: `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
    version: i + 1,
    deleted: false,
    data: { date: '2025-03-01', stops: i, extra: 0, notes: '', total: i * 198, ...entryFieldsBeforeCouriers(TEST_USER_ID), ...stamp },
  }));
  const pulls: number[] = [];
  return {
    pulls,
    push: () => Promise.reject(new Error('nothing to push')),
    pull(cursor: number): Promise<PullPage> {
      pulls.push(cursor);
      if (fail?.at === cursor) {
        const { error } = fail;
        fail = null;
        return Promise.reject(error);
      }
      const page = changes.filter((change) => change.version > cursor).slice(0, size);
      return Promise.resolve(structuredClone({ changes: page, cursor: page.at(-1)?.version ?? cursor, hasMore: cursor + page.length < count }));
    },
  };
}

let databases = 0;
const newName = () => `worker-pull-${(databases += 1)}`;

/** A worker serving `api` on its own connection to the database `name`, over a MessageChannel. */
function worker(name: string, api: SyncApi, { userId = TEST_USER_ID } = {}): PullWorker & { terminated: boolean } {
  const { port1, port2 } = new MessageChannel();
  servePulls(port1 as unknown as Port<PullRequest, PullReply>, (user) => ({ db: new LocalDb(name, user), api }));
  const tab = port2 as unknown as Port<PullReply, PullRequest>;
  const started = {
    terminated: false,
    onerror: null as ((event: Event) => void) | null,
    get onmessage() {
      return tab.onmessage;
    },
    set onmessage(listener) {
      tab.onmessage = listener;
    },
    postMessage: (message: PullRequest) => tab.postMessage({ ...message, userId }),
    terminate() {
      started.terminated = true;
      port1.close();
      port2.close();
    },
  };
  return started;
}

/** A device that has pulled nothing yet: its pulls go to the worker. */
const FIRST_SYNC = { firstSync: () => Promise.resolve(true) };

const storedStops = async (db: LocalDb) => (await db.entries.orderBy('id').toArray()).map((entry) => entry.stops);

describe('the pull in a worker', () => {
  it('stores what a pull in the tab stores, says its progress, and ends with the status', async () => {
    const name = newName();
    const api = server(25, 10);
    const tab = new LocalDb(name, TEST_USER_ID);
    const pull = workerPull(TEST_USER_ID, () => Promise.reject(new Error('the tab must not pull')), () => worker(name, api), FIRST_SYNC);
    const progress: number[] = [];
    const status = await pull.pull((pulled) => progress.push(pulled));
    expect(status).toMatchObject({ state: 'synced' });
    expect(progress).toEqual([10, 20]);
    // The tab's own connection sees the worker's writes, the cursor with them.
    expect(await storedStops(tab)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(await tab.getMeta('cursor', 0)).toBe(25);

    const inTab = new LocalDb(newName(), TEST_USER_ID);
    await pullAll({ db: inTab, api: server(25, 10) });
    expect(await storedStops(inTab)).toEqual(await storedStops(tab));
    pull.stop();
  });

  it("hands the engine the server's failure as the same ApiError, and the next cycle resumes from the cursor stored", async () => {
    const name = newName();
    const api = server(25, 10, { at: 10, error: syncFailure({ kind: 'unauthenticated' }) });
    const db = new LocalDb(name, TEST_USER_ID);
    const pull = workerPull(TEST_USER_ID, () => Promise.reject(new Error('the tab must not pull')), () => worker(name, api), FIRST_SYNC);
    const engine = new SyncEngine({ db, api, pull: pull.pull, isOnline: () => true, setTimer: () => 0 as unknown as ReturnType<typeof setTimeout>, clearTimer: () => undefined });
    const statuses: SyncStatus[] = [];
    engine.subscribe((status) => statuses.push(status));
    expect(await engine.sync()).toBe(false);
    // Read as the engine reads any failure: a 401 waits for the sign-in.
    expect(statuses.at(-1)).toEqual({ state: 'error', message: 'Sign in again to sync your changes' });
    expect(await db.getMeta('cursor', 0)).toBe(10);
    engine.resume();
    await vi.waitFor(() => expect(statuses.at(-1)).toMatchObject({ state: 'synced' }), WAIT);
    expect(api.pulls).toEqual([0, 10, 10, 20]);
    expect(await storedStops(db)).toHaveLength(25);
    pull.stop();
  });

  it('carries an ApiError across with everything the engine reads of it', async () => {
    const name = newName();
    const pull = workerPull(TEST_USER_ID, () => Promise.reject(new Error('the tab must not pull')), () =>
      worker(name, server(5, 10, { at: 0, error: syncFailure({ kind: 'server', status: 429, retryAfterMs: 3000 }) })), FIRST_SYNC);
    const error = await pull.pull(() => undefined).catch((caught: unknown) => caught);
    expect(syncFailureOf(error)).toEqual({ kind: 'server', status: 429, retryAfterMs: 3000 });
    pull.stop();
  });

  it('pulls in the tab when the worker cannot start or fails while it pulls, from the cursor it left', async () => {
    const name = newName();
    const api = server(25, 10);
    const db = new LocalDb(name, TEST_USER_ID);
    const inTab = (onProgress: (pulled: number) => void) => pullAll({ db, api, onProgress });
    expect(await workerPull(TEST_USER_ID, inTab, () => null, FIRST_SYNC).pull(() => undefined)).toMatchObject({ state: 'synced' });
    expect(await storedStops(db)).toHaveLength(25);

    // A worker whose code failed to load: its error event comes while the pull waits for it.
    const name2 = newName();
    const api2 = server(25, 10);
    const db2 = new LocalDb(name2, TEST_USER_ID);
    const broken = worker(name2, api2, { userId: 'nobody' });
    const pull = workerPull(TEST_USER_ID, (onProgress) => pullAll({ db: db2, api: api2, onProgress }), () => broken, FIRST_SYNC);
    const status = pull.pull(() => undefined);
    await vi.waitFor(() => expect(broken.onerror).toBeTypeOf('function'), WAIT);
    broken.onerror!(new Event('error'));
    expect(await status).toMatchObject({ state: 'synced' });
    expect(broken.terminated).toBe(true);
    expect(await storedStops(db2)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    pull.stop();
  });

  it('refuses to pull for a user other than the one it serves', async () => {
    const name = newName();
    const api = server(5, 10);
    const { port1, port2 } = new MessageChannel();
    servePulls(port1 as unknown as Port<PullRequest, PullReply>, (user) => ({ db: new LocalDb(name, user), api }));
    const replies: PullReply[] = [];
    port2.onmessage = (event: MessageEvent<PullReply>) => replies.push(event.data);
    port2.postMessage({ type: 'pull', id: 1, userId: TEST_USER_ID } satisfies PullRequest);
    await vi.waitFor(() => expect(replies.at(-1)).toMatchObject({ type: 'done', id: 1 }), WAIT);
    port2.postMessage({ type: 'pull', id: 2, userId: 'someone-else' } satisfies PullRequest);
    await vi.waitFor(() => expect(replies.at(-1)).toMatchObject({ type: 'failed', id: 2 }), WAIT);
    expect(api.pulls).toEqual([0]);
    port1.close();
    port2.close();
  });

  it('ends the worker on stop: the pull waiting on it fails and none starts after', async () => {
    const name = newName();
    let started: (PullWorker & { terminated: boolean }) | null = null;
    // A server that never answers: the pull is still running when sync stops.
    const api: SyncApi = { push: () => Promise.reject(new Error('no')), pull: () => new Promise(() => undefined) };
    const pull = workerPull(TEST_USER_ID, () => Promise.reject(new Error('the tab must not pull')), () => (started = worker(name, api)), FIRST_SYNC);
    const running = pull.pull(() => undefined);
    await vi.waitFor(() => expect(started).not.toBeNull(), WAIT);
    pull.stop();
    await expect(running).rejects.toThrow('sync stopped');
    expect(started!.terminated).toBe(true);
    await expect(pull.pull(() => undefined)).rejects.toThrow('sync stopped');
  });

  it("joins a pull begun before the engine started: its progress and end are the first cycle's, and nothing is pulled twice", async () => {
    const name = newName();
    const api = server(25, 10);
    const db = new LocalDb(name, TEST_USER_ID);
    const pull = workerPull(TEST_USER_ID, () => Promise.reject(new Error('the tab must not pull')), () => worker(name, api), FIRST_SYNC);
    pull.startEarly();
    const engine = new SyncEngine({ db, api, pull: pull.pull, earlyPull: pull.takeEarly(), isOnline: () => true });
    expect(pull.takeEarly()).toBeNull();
    const statuses: SyncStatus[] = [];
    engine.subscribe((status) => statuses.push(status));
    expect(await engine.sync()).toBe(true);
    expect(statuses.at(-1)).toMatchObject({ state: 'synced' });
    expect(api.pulls).toEqual([0, 10, 20]);
    expect(await storedStops(db)).toHaveLength(25);
    // Later cycles pull as always.
    expect(await engine.sync()).toBe(true);
    expect(api.pulls).toEqual([0, 10, 20, 25]);
    pull.stop();
  });

  it('pushes only once the early pull has ended, then pulls again when it pushed anything', async () => {
    const name = newName();
    const db = new LocalDb(name, TEST_USER_ID);
    // Written while signed out, waiting for this sign-in.
    await saveEntry(db, { date: '2025-03-02', stops: 99, extra: 0, notes: '', total: 99 * 198, ...entryFieldsBeforeCouriers(TEST_USER_ID) });
    const base = server(25, 10);
    const events: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const api: SyncApi & { pulls: number[] } = {
      pulls: base.pulls,
      async pull(cursor, limit) {
        events.push(`pull ${cursor}`);
        if (cursor === 20) await held;
        return base.pull(cursor, limit);
      },
      push(_clientId, items): Promise<MutationResult[]> {
        events.push(`push ${items.length}`);
        return Promise.resolve(items.map((item) => ({ id: item.mutationId, status: 'applied' as const })));
      },
    };
    const pull = workerPull(TEST_USER_ID, () => Promise.reject(new Error('the tab must not pull')), () => worker(name, api), FIRST_SYNC);
    pull.startEarly();
    const engine = new SyncEngine({ db, api, pull: pull.pull, earlyPull: pull.takeEarly(), isOnline: () => true });
    const cycle = engine.sync();
    await vi.waitFor(() => expect(events).toContain('pull 20'), WAIT);
    // The early pull is still running: nothing is pushed meanwhile.
    expect(events).not.toContain('push 1');
    release();
    expect(await cycle).toBe(true);
    expect(events).toEqual(['pull 0', 'pull 10', 'pull 20', 'push 1', 'pull 25']);
    expect(await db.outbox.count()).toBe(0);
    pull.stop();
  });

  it('ends an early pull with the sync stopped: the engine pushes nothing after it', async () => {
    const name = newName();
    const db = new LocalDb(name, TEST_USER_ID);
    await saveEntry(db, { date: '2025-03-02', stops: 99, extra: 0, notes: '', total: 99 * 198, ...entryFieldsBeforeCouriers(TEST_USER_ID) });
    let pushes = 0;
    const api: SyncApi = {
      pull: () => new Promise(() => undefined),
      push: () => {
        pushes += 1;
        return Promise.resolve([]);
      },
    };
    const pull = workerPull(TEST_USER_ID, () => Promise.reject(new Error('the tab must not pull')), () => worker(name, api), FIRST_SYNC);
    pull.startEarly();
    const engine = new SyncEngine({ db, api, pull: pull.pull, earlyPull: pull.takeEarly(), isOnline: () => true, setTimer: () => 0 as unknown as ReturnType<typeof setTimeout>, clearTimer: () => undefined });
    const cycle = engine.sync();
    engine.stop();
    pull.stop();
    expect(await cycle).toBe(false);
    expect(pushes).toBe(0);
    expect(await db.outbox.count()).toBe(1);
  });

  it('pulls in the tab, starting no worker, on a device that has synced before', async () => {
    const name = newName();
    const api = server(5, 10);
    const db = new LocalDb(name, TEST_USER_ID);
    let starts = 0;
    let asked = 0;
    const firstSync = () => ((asked += 1), Promise.resolve(false));
    const pull = workerPull(TEST_USER_ID, (onProgress) => pullAll({ db, api, onProgress }), () => ((starts += 1), worker(name, api)), { firstSync });
    expect(await pull.pull(() => undefined)).toMatchObject({ state: 'synced' });
    expect(await pull.pull(() => undefined)).toMatchObject({ state: 'synced' });
    expect(starts).toBe(0);
    // Its database is read for that once, not on every cycle.
    expect(asked).toBe(1);
    expect(await storedStops(db)).toHaveLength(5);
    pull.stop();
  });
});
