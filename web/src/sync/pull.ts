// The pull: every page after the cursor, merged into the device's database. Plain TypeScript
// that runs wherever it is given a database and the sync API: in the tab (tests, browsers
// without module workers) or in the pull worker (pull-worker.ts), where a first sync's merge and
// IndexedDB writes leave the tab's main thread free to draw (issue 30).
import type { SyncApi } from './api';
import type { LocalDb } from './db';
import { rematerializeDoc } from './docs';
import { mergeRemote, type RecordChange } from './merge';
import { refreshRecordState } from './outbox';
import { recordKinds, tableOf, type RecordContents, type RecordKind, type RecordTable } from './records';
import type { SyncStatus } from './status';
import type { Change, LocalRecord, PullPage } from './types';
import { plural } from '../lib/plural';

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
/** Meta key: the cursor this app last wrote and the record kinds that pull covered. */
const PULLED_KINDS = 'pulledKinds';

interface PulledKinds {
  cursor: number;
  kinds: readonly string[];
}

export interface PullOptions {
  db: LocalDb;
  api: SyncApi;
  /** Changes applied in one transaction at most (APPLY_BATCH; tests make it small). */
  applyBatch?: number;
  now?: () => number;
  /** Records brought onto the device so far, said as pages arrive (a batch of many pages is stored in one go). */
  onProgress?: (pulled: number) => void;
  /**
   * Records stored per write call (PULL_PAGE): between the calls the thread answers other work,
   * which the tab's main thread must (taps, drawing). The worker, which has nothing else to do,
   * stores each kind in one call: every call waits for the database to finish the one before.
   */
  putChunk?: number;
}

/** How a pull ends, when it brought everything: the status the sync cycle ends with. */
export type PullAll = (onProgress: (pulled: number) => void) => Promise<SyncStatus>;

/**
 * Pulls every page after the cursor. A first sync brings years of records (issue 30), so the
 * next page is fetched while the ones in hand are applied, and pages are applied together, up
 * to `applyBatch` changes in one transaction with the cursor they reach: every transaction
 * makes each open screen's live queries read again, and fewer, larger ones cost far less.
 * The cursor moves only in the transaction that applied its pages, so an interruption anywhere
 * (reload, network gone, the worker ended) leaves it at the last page applied, and the pull
 * resumes from there. Resolves with the status the cycle ends with, read in the transaction that
 * applied the last pages (see applyPages).
 */
export async function pullAll({ db, api, applyBatch = APPLY_BATCH, now = Date.now, onProgress = () => undefined, putChunk = PULL_PAGE }: PullOptions): Promise<SyncStatus> {
  const from = await startingCursor(db);
  let ahead: Promise<PullPage> | null = api.pull(from, PULL_PAGE);
  let pulled = 0;
  for (;;) {
    const pages: PullPage[] = [];
    let size = 0;
    let failure: { error: unknown } | null = null;
    while (ahead && size < applyBatch) {
      try {
        const page: PullPage = await ahead;
        pages.push(page);
        size += page.changes.length;
        ahead = page.hasMore ? api.pull(page.cursor, PULL_PAGE) : null;
        if (ahead) onProgress(pulled + size);
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
    const idle = pages.length > 0 ? await applyPages(db, pages, last, now, putChunk) : null;
    pulled += size;
    if (failure) throw failure.error;
    if (last) return idle!;
  }
}

/**
 * Applies pulled pages, in server order, in one transaction that moves the cursor past them.
 * With the `last` pages of a cycle, the same transaction notes the time of this sync and reads
 * what is left to send, and resolves with the status the cycle ends with. Once the transaction
 * commits, every open screen reads its records again and draws them.
 */
async function applyPages(db: LocalDb, pages: readonly PullPage[], last: boolean, now: () => number, putChunk: number): Promise<SyncStatus | null> {
  const cursor = pages.at(-1)!.cursor;
  // Most cycles bring nothing (every start, the 30 s pull): their transaction then locks only
  // what it writes, not every record table, whose reads by the screens would wait for it.
  const changed = pages.some((page) => page.changes.length > 0);
  return db.transaction('rw', changed ? db.syncTables : [db.meta, db.outbox], async () => {
    // Records with unsent changes, read once per transaction rather than once per change.
    const unsent = changed ? new Set((await db.outbox.orderBy('recordId').uniqueKeys()) as string[]) : new Set<string>();
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
    // Each kind's reads and writes are asked for without waiting on the other kinds': the thread
    // copies one kind's records while the database stores another's (the same transaction).
    await Promise.all(
      recordKinds.map((kind) => {
        const changes = byKind.get(kind) as RecordChange<RecordContents[typeof kind]>[] | undefined;
        return changes ? applyRecordChanges(db, kind, changes, unsent, putChunk) : undefined;
      }),
    );
    for (const change of docs) {
      if (change.kind !== 'profile' && change.kind !== 'settings') continue;
      const current = await db.docs.get(change.kind);
      if (change.data && (!current || current.version < change.version)) {
        await rematerializeDoc(db, change.kind, { data: change.data, version: change.version });
      }
    }
    // Kinds this version does not know yet never get here (api.ts leaves them out).
    await db.setMeta('cursor', cursor);
    await db.setMeta(PULLED_KINDS, { cursor, kinds: recordKinds } satisfies PulledKinds);
    if (!last) return null;
    const lastSyncAt = now();
    await db.setMeta('lastSyncAt', lastSyncAt);
    return idleStatus(db, lastSyncAt);
  });
}

/**
 * Where the next pull starts. An older app leaves out the kinds it does not know (api.ts) while
 * its cursor moves past them, so a pull starts again from 0 unless this app itself wrote the
 * cursor, knowing every kind it knows now: after an upgrade, and after an old tab still open
 * on the same database (Dexie lets it) pulled meanwhile. The merge makes everything else it
 * brings back a no-op.
 */
async function startingCursor(db: LocalDb): Promise<number> {
  // One request for both (each request waits its turn behind whatever the screens are doing).
  const [cursorRow, pulledRow] = await db.meta.bulkGet(['cursor', PULLED_KINDS]);
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
async function applyRecordChanges<K extends RecordKind>(
  db: LocalDb,
  kind: K,
  changes: readonly RecordChange<RecordContents[K]>[],
  unsent: ReadonlySet<string>,
  putChunk: number,
): Promise<void> {
  if (changes.length === 0) return;
  const table = tableOf(db, kind);
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
  // Written `putChunk` at a time: each put copies its record on the thread that runs the pull,
  // and a first sync's 6,255 in one call held the tab's main thread for most of a second at 4×
  // throttling. The transaction, and the cursor with it, still commits once.
  const records = [...writes.values()];
  for (let i = 0; i < records.length; i += putChunk) await table.bulkPut(records.slice(i, i + putChunk));
  for (const id of recheck) await refreshRecordState(db, id);
}

async function idleStatus(db: LocalDb, lastSyncAt: number): Promise<SyncStatus> {
  const [parked, pending] = await Promise.all([db.outbox.where('parked').equals(1).count(), db.outbox.count()]);
  if (parked > 0) return { state: 'error', message: `${parked} ${plural(parked, 'change')} could not be synced` };
  if (pending > 0) return { state: 'pending', count: pending };
  return { state: 'synced', lastSyncAt };
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
