// Runs sync for one signed-in user across all of their open tabs: one tab leads (Web Locks)
// and owns the engine and the server's event stream; the others follow, forwarding nudges and
// "sync now" requests to the leader and mirroring its status over a BroadcastChannel. When the
// leading tab closes, the lock passes to another tab, which takes over.
import { apiPaths } from '../lib/paths';
import { localDbFor, type LocalDb } from './db';
import { newId } from './ids';
import { SyncEngine } from './engine';
import { httpSyncApi } from './api';
import { pullAll } from './pull';
import { ReceiptQueue } from './receipts';
import type { SyncStatus } from './status';
import { workerPull, type PullWorker, type WorkerPull } from './worker-pull';

export interface SyncHandle {
  readonly db: LocalDb;
  readonly status: SyncStatus;
  subscribe(listener: (status: SyncStatus) => void): () => void;
  requestSync(): void;
  syncNow(): Promise<boolean>;
  resume(): void;
  stop(): void;
}

export interface StartOptions {
  userId: string;
  onUnauthenticated?: () => void;
}

type Message =
  | { type: 'status'; status: SyncStatus }
  | { type: 'hello' }
  | { type: 'nudge' }
  | { type: 'resume' }
  | { type: 'sync-now'; requestId: string }
  | { type: 'sync-now-done'; requestId: string; ok: boolean };

const EVENTS_URL = apiPaths.syncEvents;
/** How long a follower waits for the leader to answer "sync now". */
const FOLLOWER_SYNC_TIMEOUT_MS = 30_000;
/** Re-open a closed event stream after this long (the periodic pull covers the gap). */
const EVENTS_REOPEN_MS = 15_000;

/**
 * Opens the database of the user signed in last time, before the session check says they still
 * are: startSync then finds it open. Nothing is read or shown from it until then.
 */
export function openEarly(userId: string): void {
  localDbFor(userId)
    .open()
    .catch(() => undefined); // startSync opens it again and reports what is wrong
}

/** A pull worker started before anyone it will serve is known (see warmPullWorker). */
let spareWorker: PullWorker | null = null;
/** The pull of the user signing in, begun before their sync starts (see warmPullWorker). */
let early: { userId: string; puller: WorkerPull } | null = null;

function takeSpareWorker(): PullWorker | null {
  const spare = spareWorker;
  spareWorker = null;
  return spare ?? startPullWorker();
}

/** `userId`'s pulls: in the worker, or in the tab where no worker can run. */
function pullerFor(userId: string): WorkerPull {
  const db = localDbFor(userId);
  const api = httpSyncApi();
  // A device that holds no cursor yet has never finished a pull: its first sync is still to come.
  const firstSync = async () => (await db.getMeta<number>('cursor', 0)) === 0;
  return workerPull(userId, (onProgress) => pullAll({ db, api, onProgress }), takeSpareWorker, { firstSync });
}

/**
 * Gets the pull worker going while a sign-in is on its way: loading its code and starting it
 * take a few hundred milliseconds of a slow phone that the first pull would otherwise wait for
 * (issue 30). With no user yet (the sign-in was sent) it only starts; once the server names the
 * user, it begins their pull at once, beside the drawing of the first screen, and their sync
 * joins that pull when it starts (engine.ts earlyPull). A worker serves one user only
 * (worker-pull.ts): an early pull for anyone else is ended here.
 */
export function warmPullWorker(userId: string | null): void {
  if (userId === null) {
    if (!spareWorker && !early) {
      try {
        spareWorker = startPullWorker();
      } catch {
        spareWorker = null; // startSync tries again, and pulls in the tab if it cannot
      }
    }
    return;
  }
  if (early?.userId === userId) return;
  early?.puller.stop();
  early = { userId, puller: pullerFor(userId) };
  early.puller.startEarly();
}

export function startSync({ userId, onUnauthenticated }: StartOptions): SyncHandle {
  const db = localDbFor(userId);
  const listeners = new Set<(status: SyncStatus) => void>();
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(`delivery-tracker-sync-${userId}`);
  const abort = new AbortController();
  const waiting = new Map<string, (ok: boolean) => void>();
  let status: SyncStatus = { state: 'synced', lastSyncAt: null };
  let engine: SyncEngine | null = null;
  // Receipt photos upload from the tab that leads sync, after each good cycle and when online.
  let receipts: ReceiptQueue | null = null;
  // The leading tab's pulls run in a worker, off the main thread the screens draw on.
  let puller: WorkerPull | null = null;
  let events: EventSource | null = null;
  let reopenTimer: ReturnType<typeof setTimeout> | null = null;
  let releaseLeadership: (() => void) | null = null;
  let stopped = false;

  // A cycle still running when the handle stops may report a status after the channel closed.
  const post = (message: Message) => {
    if (!stopped) channel?.postMessage(message);
  };

  // The driver's own write (every save primitive says so: db.outboxChanged) goes out at once.
  function requestSync(): void {
    if (engine) void engine.sync({ byDriver: true });
    else post({ type: 'nudge' });
  }
  const stopNudges = db.onOutboxChange(requestSync);

  function setStatus(next: SyncStatus): void {
    status = next;
    for (const listener of listeners) listener(next);
  }

  const onOnline = () => {
    engine?.setOnline(true);
    void receipts?.whenOnline();
  };
  const onOffline = () => engine?.setOnline(false);
  const onVisible = () => {
    if (document.visibilityState === 'visible') void engine?.sync();
  };

  function openEvents(): void {
    if (stopped || typeof EventSource === 'undefined') return;
    const source = new EventSource(EVENTS_URL);
    events = source;
    // A poke carries the cursor the user's changes reached: one this device already pulled
    // (its own push pokes it too) needs no second cycle.
    source.addEventListener('poke', (event: MessageEvent<string>) => void engine?.poked(pokedCursor(event.data)));
    source.onerror = () => {
      // CONNECTING means the browser retries by itself; CLOSED (e.g. a 401) means we must.
      if (source.readyState !== EventSource.CLOSED || stopped) return;
      events = null;
      // The stream may have been refused because this session was ended elsewhere: a sync
      // finds out at once (a 401 signs this device out) instead of at the next timer.
      void engine?.sync();
      reopenTimer = setTimeout(openEvents, EVENTS_REOPEN_MS);
    };
  }

  function lead(): Promise<void> {
    if (stopped) return Promise.resolve();
    const queue = new ReceiptQueue({ db });
    receipts = queue;
    // The pull begun while this user signed in, if any; one begun for anyone else ends here.
    const begun = early?.userId === userId ? early.puller : null;
    if (!begun) early?.puller.stop();
    early = null;
    const ours = begun ?? pullerFor(userId);
    puller = ours;
    engine = new SyncEngine({ db, pull: ours.pull, earlyPull: ours.takeEarly(), onUnauthenticated, onSynced: () => void queue.afterSync() });
    engine.subscribe((next) => {
      if (stopped) return;
      setStatus(next);
      post({ type: 'status', status: next });
    });
    void engine.start();
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    document.addEventListener('visibilitychange', onVisible);
    openEvents();
    // Hold the lock until this handle stops (or the tab closes).
    return new Promise<void>((resolve) => (releaseLeadership = resolve));
  }

  if (channel) {
    channel.onmessage = (event: MessageEvent<Message>) => {
      const message = event.data;
      if (engine) {
        if (message.type === 'nudge') void engine.sync({ byDriver: true });
        if (message.type === 'resume') engine.resume();
        if (message.type === 'hello') post({ type: 'status', status: engine.status });
        if (message.type === 'sync-now') {
          const { requestId } = message;
          void engine.sync({ byDriver: true }).then((ok) => post({ type: 'sync-now-done', requestId, ok }));
        }
        return;
      }
      if (message.type === 'status') setStatus(message.status);
      if (message.type === 'sync-now-done') waiting.get(message.requestId)?.(message.ok);
    };
  }

  if (typeof navigator !== 'undefined' && navigator.locks && channel) {
    navigator.locks
      .request(`delivery-tracker-sync-leader-${userId}`, { signal: abort.signal }, lead)
      .catch(() => undefined); // aborted while waiting: this tab never led
    post({ type: 'hello' });
  } else {
    void lead();
  }

  return {
    db,
    get status() {
      return status;
    },
    subscribe(listener) {
      listeners.add(listener);
      listener(status);
      return () => listeners.delete(listener);
    },
    // The save primitives nudge by themselves; this is for writes outside them (a new profile picture).
    requestSync,
    syncNow() {
      if (engine) return engine.sync({ byDriver: true });
      const requestId = newId();
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => finish(false), FOLLOWER_SYNC_TIMEOUT_MS);
        function finish(ok: boolean) {
          clearTimeout(timer);
          waiting.delete(requestId);
          resolve(ok);
        }
        waiting.set(requestId, finish);
        post({ type: 'sync-now', requestId });
      });
    },
    resume() {
      if (engine) engine.resume();
      else post({ type: 'resume' });
    },
    stop() {
      stopped = true;
      stopNudges();
      abort.abort();
      engine?.stop();
      puller?.stop();
      receipts?.stop();
      events?.close();
      if (reopenTimer) clearTimeout(reopenTimer);
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
      document.removeEventListener('visibilitychange', onVisible);
      channel?.close();
      for (const finish of waiting.values()) finish(false);
      releaseLeadership?.();
      engine = null;
    },
  };
}

/** The pull worker (pull-worker.ts), where the browser can run one. */
function startPullWorker(): PullWorker | null {
  if (typeof Worker === 'undefined') return null;
  return new Worker(new URL('./pull-worker.ts', import.meta.url), { type: 'module', name: 'sync pull' }) as PullWorker;
}

/** The cursor in a poke's data (`{"cursor": N}`), or null when it names none (`{}`: a reconnected stream may have missed some). */
export function pokedCursor(data: string): number | null {
  try {
    const cursor: unknown = (JSON.parse(data) as { cursor?: unknown }).cursor;
    return typeof cursor === 'number' && Number.isInteger(cursor) ? cursor : null;
  } catch {
    return null;
  }
}
