// The sync engine: pushes the outbox, pulls changes, and reports a status. Plain TypeScript
// with injected clock, network and randomness so every path is testable without a browser.
import { ApiError } from '../lib/api';
import { failureText, httpSyncApi, syncFailureOf, type SyncApi } from './api';
import { backoffDelay } from './backoff';
import type { LocalDb } from './db';
import { newId } from './ids';
import { rematerializeDoc } from './docs';
import { mergeRemote, type RecordChange } from './merge';
import { countFailedAttempt, park, recordResults, refreshRecordState } from './outbox';
import { recordKinds, tableOf, type RecordContents, type RecordKind, type RecordTable } from './records';
import type { SyncStatus } from './status';
import type { Change, LocalRecord, MutationResult, PullPage } from './types';
import { plural } from '../lib/plural';

export { MAX_ATTEMPTS } from './outbox';
export const PUSH_BATCH = 100;
/** The most the server gives in one pull page. */
export const PULL_PAGE = 1000;
/**
 * Changes applied in one transaction at most (pages are applied whole, so a little more). Every
 * transaction makes each open screen's live queries read again: at 3,000 a ten-year first sync
 * (6,255 records) re-read and re-drew the dashboard three times, about 0.3 s each at 4× CPU
 * throttling, so a first sync of that size now lands in one (issue 30). The bound keeps the
 * pages held in memory at a few megabytes for any account.
 */
export const APPLY_BATCH = 10_000;
export const PERIODIC_PULL_MS = 30_000;
/** Meta key: the cursor this app last wrote and the record kinds that pull covered. */
const PULLED_KINDS = 'pulledKinds';

interface PulledKinds {
  cursor: number;
  kinds: readonly string[];
}

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
  /** Changes applied in one transaction at most (APPLY_BATCH; tests make it small). */
  applyBatch?: number;
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
  private readonly applyBatch: number;

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
    this.applyBatch = options.applyBatch ?? APPLY_BATCH;
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
    try {
      await this.pushAll();
      const idle = await this.pullAll();
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

  private async pushAll(): Promise<void> {
    // Read only when there is something to send: most cycles (and a new device's first) have nothing.
    let clientId: string | null = null;
    let batchSize = PUSH_BATCH;
    for (;;) {
      const batch = await this.db.outbox.where('parked').equals(0).limit(batchSize).sortBy('seq');
      if (batch.length === 0) return;
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

  /**
   * Pulls every page after the cursor. A first sync brings years of records (issue 30), so the
   * next page is fetched while the ones in hand are applied, and pages are applied together, up
   * to APPLY_BATCH changes in one transaction with the cursor they reach: every transaction
   * makes each open screen's live queries read again, and fewer, larger ones cost far less.
   * The cursor moves only in the transaction that applied its pages, so an interruption anywhere
   * (reload, network gone) leaves it at the last page applied, and the pull resumes from there.
   * Resolves with the status the cycle ends with, read in the transaction that applied the last
   * pages (see applyPages).
   */
  private async pullAll(): Promise<SyncStatus> {
    const from = await this.startingCursor();
    let ahead: Promise<PullPage> | null = this.api.pull(from, PULL_PAGE);
    let pulled = 0;
    for (;;) {
      const pages: PullPage[] = [];
      let size = 0;
      let failure: { error: unknown } | null = null;
      while (ahead && size < this.applyBatch) {
        try {
          const page: PullPage = await ahead;
          pages.push(page);
          size += page.changes.length;
          ahead = page.hasMore ? this.api.pull(page.cursor, PULL_PAGE) : null;
          // Brought onto the device, to be stored with the rest of the batch: said as they come,
          // as a batch of many pages is stored in one go.
          if (ahead) this.emit({ ...(this.current.state === 'syncing' ? this.current : { state: 'syncing' as const }), pulled: pulled + size });
        } catch (error) {
          failure = { error };
          ahead = null;
        }
      }
      // Fetched ahead while this batch is applied; awaited (and its failure seen) next round,
      // or dropped when the apply fails and the cycle ends.
      ahead?.catch(() => undefined);
      // The pages already here are applied even when the next one failed: less to fetch again.
      const last = !ahead && !failure;
      const idle = pages.length > 0 ? await this.applyPages(pages, last) : null;
      pulled += size;
      if (failure) throw failure.error;
      if (last) return idle!;
    }
  }

  /**
   * Applies pulled pages, in server order, in one transaction that moves the cursor past them.
   * With the `last` pages of a cycle, the same transaction notes the time of this sync and reads
   * what is left to send, and resolves with the status the cycle ends with. Once the transaction
   * commits, every open screen reads its records again and draws them (after a first sync, most
   * of a second at 4× CPU throttling); read after it, the status waited for all of that.
   */
  private async applyPages(pages: readonly PullPage[], last: boolean): Promise<SyncStatus | null> {
    const cursor = pages.at(-1)!.cursor;
    // Most cycles bring nothing (every start, the 30 s pull): their transaction then locks only
    // what it writes, not every record table, whose reads by the screens would wait for it.
    const changed = pages.some((page) => page.changes.length > 0);
    return this.db.transaction('rw', changed ? this.db.syncTables : [this.db.meta, this.db.outbox], async () => {
      // Records with unsent changes, read once per transaction rather than once per change.
      const unsent = changed ? new Set((await this.db.outbox.orderBy('recordId').uniqueKeys()) as string[]) : new Set<string>();
      const byKind = new Map<string, Change[]>();
      const docs: Change[] = [];
      for (const page of pages) {
        for (const change of page.changes) {
          if (change.kind === 'profile' || change.kind === 'settings') docs.push(change);
          else {
            const same = byKind.get(change.kind);
            if (same) same.push(change);
            else byKind.set(change.kind, [change]);
          }
        }
      }
      for (const kind of recordKinds) {
        const changes = byKind.get(kind) as RecordChange<RecordContents[typeof kind]>[] | undefined;
        if (changes) await this.applyRecordChanges(kind, changes, unsent);
      }
      for (const change of docs) {
        if (change.kind !== 'profile' && change.kind !== 'settings') continue;
        const current = await this.db.docs.get(change.kind);
        if (change.data && (!current || current.version < change.version)) {
          await rematerializeDoc(this.db, change.kind, { data: change.data, version: change.version });
        }
      }
      // Kinds this version does not know yet never get here (api.ts leaves them out).
      await this.db.setMeta('cursor', cursor);
      await this.db.setMeta(PULLED_KINDS, { cursor, kinds: recordKinds } satisfies PulledKinds);
      if (!last) return null;
      const lastSyncAt = this.now();
      await this.db.setMeta('lastSyncAt', lastSyncAt);
      return this.idleStatus(lastSyncAt);
    });
  }

  /**
   * Where the next pull starts. An older app leaves out the kinds it does not know (api.ts) while
   * its cursor moves past them, so a pull starts again from 0 unless this app itself wrote the
   * cursor, knowing every kind it knows now: after an upgrade, and after an old tab still open
   * on the same database (Dexie lets it) pulled meanwhile. The merge makes everything else it
   * brings back a no-op.
   */
  private async startingCursor(): Promise<number> {
    // One request for both (each request waits its turn behind whatever the screens are doing).
    const [cursorRow, pulledRow] = await this.db.meta.bulkGet(['cursor', PULLED_KINDS]);
    const cursor = (cursorRow?.value as number | undefined) ?? 0;
    const pulled = (pulledRow?.value as PulledKinds | undefined) ?? null;
    const ours = pulled !== null && pulled.cursor === cursor && recordKinds.every((kind) => pulled.kinds.includes(kind));
    return ours ? cursor : 0;
  }

  /**
   * Merges one page's changes of one kind: the device's copies read in one go and the results
   * written in one go (a first sign-in pulls years of entries; one read and write per record
   * would take seconds). Changes come in server order; a record changed twice across the pages
   * applied together meets its first change's result.
   */
  private async applyRecordChanges<K extends RecordKind>(
    kind: K,
    changes: readonly RecordChange<RecordContents[K]>[],
    unsent: ReadonlySet<string>,
  ): Promise<void> {
    if (changes.length === 0) return;
    const table = tableOf(this.db, kind);
    const current = new Map<string, LocalRecord<RecordContents[K]> | undefined>(await storedCopies(table, changes.map((change) => change.id)));
    const writes = new Map<string, LocalRecord<RecordContents[K]>>();
    const recheck: string[] = [];
    for (const change of changes) {
      const local = current.get(change.id);
      const pending = unsent.has(change.id);
      const outcome = mergeRemote(kind, local, change, pending);
      let next: LocalRecord<RecordContents[K]> | undefined;
      if (outcome.kind === 'write') {
        next = outcome.record;
        // The merge only knows "something is unsent"; the outbox knows whether it is parked.
        if (pending) recheck.push(change.id);
      } else if (outcome.kind === 'keep-local' && local) {
        next = { ...local, server: outcome.server };
      }
      if (next) {
        current.set(change.id, next);
        writes.set(change.id, next);
      }
    }
    // Written a page's worth at a time: each put copies its record on the main thread, and a
    // first sync's 6,255 in one call held it for most of a second at 4× throttling, taps and
    // all. Between the parts the page answers input; the transaction, and the cursor with it,
    // still commits once.
    const records = [...writes.values()];
    for (let i = 0; i < records.length; i += PULL_PAGE) await table.bulkPut(records.slice(i, i + PULL_PAGE));
    for (const id of recheck) await refreshRecordState(this.db, id);
  }

  /** Offline with unsent changes, the driver needs to know those changes are waiting. */
  private async offlineStatus(): Promise<SyncStatus> {
    const waiting = await this.db.outbox.where('parked').equals(0).count();
    return waiting > 0 ? { state: 'pending', count: waiting, offline: true } : { state: 'offline' };
  }

  private async idleStatus(lastSyncAt: number): Promise<SyncStatus> {
    const [parked, pending] = await Promise.all([this.db.outbox.where('parked').equals(1).count(), this.db.outbox.count()]);
    if (parked > 0) return { state: 'error', message: `${parked} ${plural(parked, 'change')} could not be synced` };
    if (pending > 0) return { state: 'pending', count: pending };
    return { state: 'synced', lastSyncAt };
  }

  private emit(status: SyncStatus): void {
    this.current = status;
    for (const listener of this.listeners) listener(status);
  }
}

/**
 * The device's copies of the records `ids` names, by id; those it does not hold are left out.
 * Which ids it holds comes first, from the keys alone (one request, no record read): on a first
 * sync it holds none of a page's thousand records, and asking for each one by one took about a
 * second of the main thread per ten years of records on a slow phone (issue 30).
 */
export async function storedCopies<K extends RecordKind>(table: RecordTable<K>, ids: readonly string[]): Promise<[string, LocalRecord<RecordContents[K]>][]> {
  if (ids.length === 0) return [];
  const [low, high] = ids.reduce<[string, string]>(([min, max], id) => [id < min ? id : min, id > max ? id : max], [ids[0]!, ids[0]!]);
  const held = new Set(await table.where(':id').between(low, high, true, true).primaryKeys());
  const wanted = ids.filter((id) => held.has(id));
  if (wanted.length === 0) return [];
  const copies = await table.bulkGet(wanted);
  return wanted.flatMap((id, i) => (copies[i] ? [[id, copies[i]] as [string, LocalRecord<RecordContents[K]>]] : []));
}
