// The pull in a dedicated worker (issue 30): a first sync of ten years merges and stores 6,255
// records, and storing them (each put copies its record into IndexedDB on the calling thread)
// was over a second of a slow phone's main thread, during which the screens could not draw.
// In the worker, the tab only draws: its live queries hear of the worker's writes through
// Dexie's own change broadcast (a BroadcastChannel every context of the origin shares).
//
// The engine still decides when to pull (after its push, one cycle at a time); the worker only
// runs pull.ts's pullAll on its own connection to the same database and says how it ended. Its
// transactions are the same as in the tab: the cursor moves only with the records it covers,
// so a worker ended mid-pull (sign-out, another user, the tab closed) leaves nothing half-done.
import { ApiError } from '../lib/api';
import type { SyncApi } from './api';
import type { LocalDb } from './db';
import { pullAll, type PullAll } from './pull';
import type { SyncStatus } from './status';

/** The tab to the worker: pull everything new into `userId`'s database. */
export interface PullRequest {
  type: 'pull';
  id: number;
  userId: string;
}

/** A failure as it crosses to the tab: an ApiError keeps what the engine decides by. */
export type WireError =
  | { name: 'ApiError'; status: number; code: string; message: string; fields?: Record<string, string[]> | undefined; retryAfter?: number | undefined }
  | { name: string; message: string };

/** The worker to the tab, about the request `id`. */
export type PullReply = { type: 'progress'; id: number; pulled: number } | { type: 'done'; id: number; status: SyncStatus } | { type: 'failed'; id: number; error: WireError };

/** What each side needs of the other's end of the channel (a Worker, or the worker's own scope). */
export interface Port<In, Out> {
  postMessage(message: Out): void;
  onmessage: ((event: MessageEvent<In>) => void) | null;
}

export function toWire(error: unknown): WireError {
  if (error instanceof ApiError) {
    const { status, code, message, fields, retryAfter } = error;
    return { name: 'ApiError', status, code, message, fields, retryAfter };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

export function fromWire(wire: WireError): Error {
  if ('status' in wire) return new ApiError(wire);
  const error = new Error(wire.message);
  error.name = wire.name;
  return error;
}

/**
 * The worker's side: answers each pull request with pullAll on the user's database. One worker
 * serves one user (the coordinator starts one per signed-in user and ends it with their sync);
 * a request for anyone else is refused rather than written to the wrong database.
 */
export function servePulls(port: Port<PullRequest, PullReply>, open: (userId: string) => { db: LocalDb; api: SyncApi }): void {
  let served: { userId: string; db: LocalDb; api: SyncApi } | null = null;
  port.onmessage = ({ data: request }) => {
    const { id, userId } = request;
    if (served && served.userId !== userId) {
      port.postMessage({ type: 'failed', id, error: { name: 'Error', message: 'this pull worker serves another user' } });
      return;
    }
    served ??= { userId, ...open(userId) };
    const { db, api } = served;
    pullAll({ db, api, putChunk: Infinity, onProgress: (pulled) => port.postMessage({ type: 'progress', id, pulled }) }).then(
      (status) => port.postMessage({ type: 'done', id, status }),
      (error: unknown) => port.postMessage({ type: 'failed', id, error: toWire(error) }),
    );
  };
}

export interface WorkerPull {
  pull: PullAll;
  /**
   * Starts a pull at once, before the engine asks for one: on a new device, while the sign-in
   * is still being answered and the screens drawn, so the first sync runs beside them (issue 30).
   * Only in a worker (in the tab it would compete with the screens).
   */
  startEarly(): void;
  /** The early pull, once: joining it gives its progress from then on and its end (engine.ts). Null when none was started. */
  takeEarly(): PullAll | null;
  /** Ends the worker (and any pull it runs: its open transaction is rolled back). */
  stop(): void;
}

/** A pull started before the engine asked: its end, and whom to tell of its progress (nobody until the engine joins it). */
interface EarlyPull {
  done: Promise<SyncStatus>;
  onProgress: (pulled: number) => void;
}

/** A started pull worker, as the tab sees it. */
export interface PullWorker extends Port<PullReply, PullRequest> {
  onerror: ((event: Event) => void) | null;
  terminate(): void;
}

/**
 * The tab's side: `userId`'s first sync runs in the worker `start` makes. Where no worker can be had
 * (none made, or its code failed to load: offline before the service worker had it), the pull
 * runs in the tab (`inTab`), as it does in the tests; a pull the worker was running when it
 * failed runs again there, from the cursor its last committed transaction left.
 */
export function workerPull(userId: string, inTab: PullAll, start: () => PullWorker | null, { firstSync }: { firstSync: () => Promise<boolean> }): WorkerPull {
  /**
   * Started for a first sync only (`firstSync`: this device has pulled nothing yet, or a sign-in
   * begins it early), not on every start: a start with data already here pulls a few changes at
   * most, and loading the worker's code would only compete with the first screen's drawing (an
   * offline start never pulls at all). Once started, it takes every pull of the session.
   * `failed`: none could be had, and none is tried again.
   */
  let worker: PullWorker | null = null;
  let failed = false;
  let next = 0;
  let stopped = false;
  let early: EarlyPull | null = null;
  /** `firstSync` said no: this device's pulls run in the tab from now on. */
  let pastFirstSync = false;
  const pending = new Map<number, { onProgress: (pulled: number) => void; resolve: (status: SyncStatus) => void; reject: (error: unknown) => void }>();

  const settle = (id: number) => {
    const waiting = pending.get(id);
    pending.delete(id);
    return waiting;
  };

  /** The worker is gone: what it was running runs in the tab, and so does everything after. */
  const fail = () => {
    worker?.terminate();
    worker = null;
    failed = true;
    for (const id of [...pending.keys()]) {
      const waiting = settle(id)!;
      inTab(waiting.onProgress).then(waiting.resolve, waiting.reject);
    }
  };

  const started = (): PullWorker | null => {
    if (worker || failed) return worker;
    try {
      worker = start();
    } catch {
      worker = null;
    }
    if (!worker) {
      failed = true;
      return null;
    }
    worker.onmessage = ({ data: reply }) => {
      if (reply.type === 'progress') {
        pending.get(reply.id)?.onProgress(reply.pulled);
        return;
      }
      const waiting = settle(reply.id);
      if (reply.type === 'done') waiting?.resolve(reply.status);
      else waiting?.reject(fromWire(reply.error));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      fail();
    };
    return worker;
  };

  const inWorker = (running: PullWorker, onProgress: (pulled: number) => void) => {
    const id = (next += 1);
    return new Promise<SyncStatus>((resolve, reject) => {
      pending.set(id, { onProgress, resolve, reject });
      running.postMessage({ type: 'pull', id, userId });
    });
  };

  return {
    async pull(onProgress) {
      if (stopped) throw new Error('sync stopped');
      // Once a device is past its first sync it stays past it: asked until then, not on every cycle.
      if (worker === null && !failed && !pastFirstSync) pastFirstSync = !(await firstSync());
      const wanted = worker !== null || (!failed && !pastFirstSync);
      if (stopped) throw new Error('sync stopped');
      const running = wanted ? started() : null;
      return running ? inWorker(running, onProgress) : inTab(onProgress);
    },
    startEarly() {
      const running = stopped || early ? null : started();
      if (!running) return;
      const begun: EarlyPull = { done: inWorker(running, (pulled) => begun.onProgress(pulled)), onProgress: () => undefined };
      // Seen by whoever joins it; until then a failure is only the engine's to retry.
      begun.done.catch(() => undefined);
      early = begun;
    },
    takeEarly() {
      const taken = early;
      early = null;
      if (!taken) return null;
      return (onProgress) => {
        taken.onProgress = onProgress;
        return taken.done;
      };
    },
    stop() {
      stopped = true;
      worker?.terminate();
      worker = null;
      for (const id of [...pending.keys()]) settle(id)!.reject(new Error('sync stopped'));
    },
  };
}
