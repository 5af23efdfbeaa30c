// The sync engine: pushes the outbox, pulls changes, and reports a status. Plain TypeScript
// with injected clock, network and randomness so every path is testable without a browser.
import { ApiError } from '../lib/api';
import { failureText, httpSyncApi, syncFailureOf, type SyncApi } from './api';
import { backoffDelay } from './backoff';
import type { LocalDb } from './db';
import { newId } from './ids';
import { countFailedAttempt, park, recordResults } from './outbox';
import { pullAll, type PullAll } from './pull';
import type { SyncStatus } from './status';
import type { MutationResult } from './types';

export { MAX_ATTEMPTS } from './outbox';
export const PUSH_BATCH = 100;
export const PERIODIC_PULL_MS = 30_000;

type Timer = ReturnType<typeof setTimeout>;

export interface EngineOptions {
  db: LocalDb;
  api?: SyncApi;
  isOnline?: () => boolean;
  random?: () => number;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => Timer;
  clearTimer?: (timer: Timer) => void;
  /** Called when the server says the session is gone; sync waits for `resume()`. */
  onUnauthenticated?: () => void;
  /** Called after each cycle that pushed and pulled everything (the receipt queue runs then). */
  onSynced?: () => void;
  /** Changes applied in one transaction at most (pull.ts's APPLY_BATCH; tests make it small). */
  applyBatch?: number;
  /**
   * Where the pull runs: by default here, on `db` through `api`; the coordinator hands it to the
   * pull worker (pull-worker.ts), off the page's main thread.
   */
  pull?: PullAll;
  /**
   * A pull that began before the engine did (the worker starts a new device's first pull while
   * the sign-in is still being answered: issue 30). The first cycle joins it, then pushes, and
   * takes its end as its own when there was nothing to push; else it pulls again as always.
   */
  earlyPull?: PullAll | null;
}

export class SyncEngine {
  private readonly db: LocalDb;
  private readonly api: SyncApi;
  private readonly isOnline: () => boolean;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => Timer;
  private readonly clearTimer: (timer: Timer) => void;
  private readonly onUnauthenticated: () => void;
  private readonly onSynced: () => void;
  private readonly pull: PullAll;
  private earlyPull: PullAll | null;
  /** stop() was called: a cycle still running does nothing more than it must. */
  private stopped = false;

  private listeners = new Set<(status: SyncStatus) => void>();
  private current: SyncStatus = { state: 'synced', lastSyncAt: null };
  private running: Promise<boolean> | null = null;
  /** The cycle that runs after the current one, for the calls made while it runs. */
  private next: Promise<boolean> | null = null;
  /** The driver saved something or pressed Sync Data, and no cycle has started on it yet. */
  private asked = false;
  private failures = 0;
  private retryTimer: Timer | null = null;
  private periodicTimer: Timer | null = null;
  private paused = false;
  private started = false;

  constructor(options: EngineOptions) {
    this.db = options.db;
    this.api = options.api ?? httpSyncApi();
    this.isOnline = options.isOnline ?? (() => (typeof navigator === 'undefined' ? true : navigator.onLine));
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((t) => clearTimeout(t));
    this.onUnauthenticated = options.onUnauthenticated ?? (() => undefined);
    this.onSynced = options.onSynced ?? (() => undefined);
    const { db, api, now } = this;
    this.pull = options.pull ?? ((onProgress) => pullAll({ db, api, applyBatch: options.applyBatch, now, onProgress }));
    this.earlyPull = options.earlyPull ?? null;
  }

  get status(): SyncStatus {
    return this.current;
  }

  subscribe(listener: (status: SyncStatus) => void): () => void {
    this.listeners.add(listener);
    listener(this.current);
    return () => this.listeners.delete(listener);
  }

  /** Starts syncing: the first cycle at once (not waited for), then on the timer. */
  start(): Promise<void> {
    if (!this.started) {
      this.started = true;
      this.schedulePeriodic();
      // Nothing is read first: on a new device this cycle is the first sync, the longest wait it
      // has (issue 30). The cycle says "syncing" (or "offline") before the time of the last sync
      // stored here could be shown, so that time is not read.
      void this.sync();
    }
    return Promise.resolve();
  }

  stop(): void {
    this.started = false;
    this.stopped = true;
    if (this.retryTimer) this.clearTimer(this.retryTimer);
    if (this.periodicTimer) this.clearTimer(this.periodicTimer);
    this.retryTimer = this.periodicTimer = null;
  }

  /** The session is valid again (the user signed back in, or chose a new password): continue. */
  resume(): void {
    this.paused = false;
    void this.sync();
  }

  /** The browser says the network changed. */
  setOnline(online: boolean): void {
    if (!online) {
      this.emit({ state: 'offline' });
      return;
    }
    this.failures = 0;
    void this.sync();
  }

  /**
   * Push everything pending, then pull everything new. Resolves true when both completed.
   * Calls while a cycle runs get one more cycle afterwards (one for all of them), and resolve
   * with it: the running one may have pushed before their write, and Sync Data must not say
   * "synchronized" while the engine starts over (issue 15).
   * `byDriver`: the driver's own save or Sync Data asked for it, so the status says so (see
   * SyncStatus); timers, pokes and the network coming back do not.
   */
  sync({ byDriver = false }: { byDriver?: boolean } = {}): Promise<boolean> {
    if (byDriver) this.asked = true;
    if (this.running) {
      this.next ??= this.running.then(() => {
        this.next = null;
        return this.sync();
      });
      return this.next;
    }
    this.running = this.cycle().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /**
   * The server poked: the user's changes reached `cursor` (null: some may have been missed).
   * When this device has already pulled that far (after the cycle running now, which may be
   * pulling it), there is nothing to fetch: its own push pokes it as well as the others.
   */
  async poked(cursor: number | null): Promise<boolean> {
    if (cursor !== null) {
      if (this.running) await this.running;
      if (this.next) return this.next;
      if (cursor <= (await this.db.getMeta<number>('cursor', 0))) return true;
    }
    return this.sync();
  }

  private async cycle(): Promise<boolean> {
    if (this.paused) return false;
    if (!this.isOnline()) {
      this.emit(await this.offlineStatus());
      return false;
    }
    if (this.retryTimer) {
      this.clearTimer(this.retryTimer);
      this.retryTimer = null;
    }
    const byDriver = this.asked;
    this.asked = false;
    this.emit(byDriver ? { state: 'syncing', byDriver } : { state: 'syncing' });
    // Records brought onto the device so far, said as they come: a batch of many pages is stored in one go.
    const progress = (pulled: number) => this.emit({ ...(this.current.state === 'syncing' ? this.current : { state: 'syncing' as const }), pulled });
    try {
      // A pull and a push never run at once: the early pull ends before anything is pushed.
      const early = this.earlyPull;
      this.earlyPull = null;
      let idle = early ? await early(progress).catch((error: unknown) => (this.stopped ? Promise.reject(error) : null)) : null;
      const pushed = await this.pushAll();
      if (idle === null || pushed) idle = await this.pull(progress);
      this.failures = 0;
      // The browser may have gone offline while the last answer was on its way: the status
      // then stays what the network says, not "synced".
      this.emit(this.isOnline() ? idle : await this.offlineStatus());
      this.onSynced();
      return true;
    } catch (error) {
      await this.handleFailure(error);
      return false;
    }
  }

  private async handleFailure(error: unknown): Promise<void> {
    const failure = syncFailureOf(error);
    if (failure?.kind === 'unauthenticated') {
      // Keep every outbox item: they belong to this user and leave after they sign in again.
      this.paused = true;
      this.emit({ state: 'error', message: 'Sign in again to sync your changes' });
      this.onUnauthenticated();
      return;
    }
    if (failure?.kind === 'password-change') {
      // The outbox waits as it is; choosing a new password resumes sync (the sync manager).
      this.paused = true;
      this.emit({ state: 'error', message: 'Choose a new password to sync your changes' });
      return;
    }
    this.failures += 1;
    if (failure?.kind === 'offline') {
      this.emit(await this.offlineStatus());
      // The browser may think it is online while nothing gets through: keep trying.
      if (this.isOnline()) this.scheduleRetry();
    } else {
      this.emit({ state: 'error', message: failureText(failure, error) });
      this.scheduleRetry(failure?.kind === 'server' ? (failure.retryAfterMs ?? 0) : 0);
    }
  }

  private scheduleRetry(atLeastMs = 0): void {
    if (!this.started || this.retryTimer) return;
    this.retryTimer = this.setTimer(() => {
      this.retryTimer = null;
      void this.sync();
    }, Math.max(atLeastMs, backoffDelay(this.failures, this.random)));
  }

  private schedulePeriodic(): void {
    this.periodicTimer = this.setTimer(() => {
      if (!this.started) return;
      void this.sync();
      this.schedulePeriodic();
    }, PERIODIC_PULL_MS);
  }

  private async clientId(): Promise<string> {
    let id = await this.db.getMeta<string | null>('clientId', null);
    if (!id) {
      id = newId();
      await this.db.setMeta('clientId', id);
    }
    return id;
  }

  /** Sends everything waiting; resolves whether there was anything to send. */
  private async pushAll(): Promise<boolean> {
    // Read only when there is something to send: most cycles (and a new device's first) have nothing.
    let clientId: string | null = null;
    let batchSize = PUSH_BATCH;
    for (;;) {
      const batch = await this.db.outbox.where('parked').equals(0).limit(batchSize).sortBy('seq');
      if (batch.length === 0) return clientId !== null;
      clientId ??= await this.clientId();
      let results: MutationResult[];
      try {
        results = await this.api.push(clientId, batch);
      } catch (error) {
        const failure = syncFailureOf(error);
        if (failure?.kind === 'refused') {
          // The request as a whole was refused (e.g. too large): narrow down to the item
          // responsible and park only that one, so it cannot block the rest.
          if (batch.length > 1) {
            batchSize = Math.max(1, Math.floor(batch.length / 2));
            continue;
          }
          await park(this.db, batch, failure.message);
          batchSize = PUSH_BATCH;
          continue;
        }
        // A 429 says "not now", not "this item fails": it never counts towards parking.
        const later = failure?.kind === 'server' && failure.status === 429;
        if ((failure?.kind === 'server' && !later) || (failure?.kind === 'offline' && this.isOnline())) {
          await countFailedAttempt(this.db, batch, failureText(failure, error));
        }
        throw error;
      }
      await recordResults(this.db, batch, results);
      // An answer with no results is not an answer: retry as for any server trouble.
      if (results.length === 0) throw new ApiError({ status: 200, code: 'invalid-response' });
      batchSize = PUSH_BATCH;
    }
  }

  /** Offline with unsent changes, the driver needs to know those changes are waiting. */
  private async offlineStatus(): Promise<SyncStatus> {
    const waiting = await this.db.outbox.where('parked').equals(0).count();
    return waiting > 0 ? { state: 'pending', count: waiting, offline: true } : { state: 'offline' };
  }

  private emit(status: SyncStatus): void {
    this.current = status;
    for (const listener of this.listeners) listener(status);
  }
}
