// A first sync interrupted at random points (issue 30): the network gone between pages or while
// a page is on its way, the page reloaded, the database write cut short inside a transaction;
// then it resumes. The real engine and Dexie (fake-indexeddb) against a paged in-memory server
// that keeps every version it ever made, with another device writing between interruptions.
// After every interruption the device must hold exactly what the server said up to the cursor
// it stored (no page lost, none skipped), each cycle must resume from that cursor (no page
// applied twice), and the end result must equal an uninterrupted sync onto a fresh device.
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeStatementCheckContent, TEST_USER_ID } from '@/testing/sync-handle';
import { syncFailure } from '@/testing/sync-failure';
import type { SyncApi } from './api';
import { entryFieldsBeforeCouriers } from './default-courier';
import { LocalDb } from './db';
import { SyncEngine } from './engine';
import { contentOf, serverVersionOf, tableOf, type RecordKind } from './records';
import type { SyncStatus } from './status';
import type { Change, EntryContent, MutationResult, PullPage } from './types';

type Interruption = 'offline' | 'reload' | 'crash';

/** Another device's write: a new or changed record, a delete, or the profile. */
type Edit = { op: 'put'; kind: 'entry' | 'invoice'; slot: number; value: number } | { op: 'delete'; slot: number } | { op: 'profile'; value: number };

const stamp = { createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z' };
const entryContent = (stops: number): EntryContent => ({ date: `2025-03-${String((stops % 28) + 1).padStart(2, '0')}`, stops, extra: 0, notes: `day ${stops}`, total: stops * 198, ...entryFieldsBeforeCouriers(TEST_USER_ID) });

/** The server: pages of the records changed after a cursor, each at its latest version, in version order. */
class PagedServer implements SyncApi {
  /** Every version ever made, in order. */
  readonly history: Change[] = [];
  private readonly current = new Map<string, Change>();
  private seq = 0;
  /** The cursor each pull asked from, in order. */
  readonly pulledFrom: number[] = [];
  /** Pulls left before the armed one fails (null: none armed). */
  failAfter: number | null = null;

  constructor(private readonly pageSize: number) {}

  apply(edit: Edit): void {
    const id = (slot: number) => `00000000-0000-7000-8000-${String(slot).padStart(12, '0')}`;
    let change: Change;
    if (edit.op === 'profile') {
      change = { kind: 'profile', id: TEST_USER_ID, version: 0, deleted: false, data: { displayName: `Sam ${edit.value}`, email: 'sam@example.com', bio: '', photoURL: null, role: 'free', isAnonymous: false, paymentConfig: { tiers: [{ rate: 198 }] }, ...stamp } };
    } else if (edit.op === 'delete') {
      const target = this.current.get(id(edit.slot));
      if (!target || target.deleted) return;
      change = { kind: target.kind, id: target.id, version: 0, deleted: true } as Change;
    } else {
      const before = this.current.get(id(edit.slot));
      // A put after a delete changes nothing (as on the server), and a record keeps its kind.
      if (before?.deleted) return;
      const kind = before?.kind ?? edit.kind;
      change =
        kind === 'entry'
          ? { kind, id: id(edit.slot), version: 0, deleted: false, data: { ...entryContent(edit.value), ...stamp } }
          : ({ kind: 'invoice', id: id(edit.slot), version: 0, deleted: false, data: { ...makeStatementCheckContent({ paid: edit.value * 100, reference: `ST-${edit.value}` }), ...stamp } } as Change);
    }
    change.version = ++this.seq;
    this.current.set(change.id, change);
    this.history.push(change);
  }

  async push(): Promise<MutationResult[]> {
    throw new Error('a first sync has nothing to push');
  }

  async pull(cursor: number, limit: number): Promise<PullPage> {
    this.pulledFrom.push(cursor);
    if (this.failAfter !== null && this.failAfter-- === 0) {
      this.failAfter = null;
      throw syncFailure({ kind: 'offline' });
    }
    const changes = [...this.current.values()].filter((c) => c.version > cursor).sort((a, b) => a.version - b.version);
    const page = changes.slice(0, Math.min(limit, this.pageSize));
    // A copy, as off the wire: the device must not share objects with the server.
    return structuredClone({ changes: page, cursor: page.at(-1)?.version ?? cursor, hasMore: changes.length > page.length });
  }
}

let opened = 0;

/** A device's database, as a page load opens it; `crashAfter` cuts the n-th write short (throws inside its transaction). */
function openDevice(name: string, crash: { after: number | null }): LocalDb {
  const db = new LocalDb(name, TEST_USER_ID);
  db.use({
    stack: 'dbcore',
    name: 'crash',
    create: (down) => ({
      ...down,
      table: (tableName) => {
        const table = down.table(tableName);
        return {
          ...table,
          mutate: (request) => {
            if (crash.after !== null && crash.after-- === 0) {
              crash.after = null;
              return Promise.reject(new Error('the page was closed mid-write'));
            }
            return table.mutate(request);
          },
        };
      },
    }),
  });
  return db;
}

function engineFor(db: LocalDb, server: SyncApi, applyBatch: number): SyncEngine {
  return new SyncEngine({
    db,
    api: server,
    isOnline: () => true,
    random: () => 0.5,
    // Retries are the test's to make.
    setTimer: () => 0 as unknown as ReturnType<typeof setTimeout>,
    clearTimer: () => undefined,
    applyBatch,
  });
}

const KINDS: RecordKind[] = ['entry', 'invoice'];

/**
 * What the device holds of the synced records and the profile, comparable across devices. A
 * tombstone keeps whatever content the device had before the delete (merge.ts), and a device
 * that never had the record has none: only the delete itself is compared.
 */
async function holdings(db: LocalDb): Promise<unknown> {
  const tables = await Promise.all(
    KINDS.map(async (kind) =>
      (await tableOf(db, kind).toArray())
        .map((record) => (record.deleted ? { id: record.id, deleted: record.deleted, server: record.server, syncState: record.syncState } : record))
        .sort((a, b) => (a.id < b.id ? -1 : 1)),
    ),
  );
  const profile = await db.docs.get('profile');
  return { tables, profile: profile ? { version: profile.version, data: profile.data } : null, cursor: await db.getMeta('cursor', 0) };
}

/**
 * The device holds, for each record whose server version is at or below the cursor it stored,
 * exactly that version. A record changed again past the cursor is served only at its newest
 * version (a pull never returns an older one), so the device may hold an earlier version it
 * pulled before, or nothing yet.
 */
async function expectHoldsUpToCursor(db: LocalDb, server: PagedServer): Promise<void> {
  const cursor = await db.getMeta<number>('cursor', 0);
  const latest = new Map<string, Change>();
  const newest = new Map<string, Change>();
  for (const change of server.history) {
    if (change.version <= cursor) latest.set(change.id, change);
    newest.set(change.id, change);
  }
  const ids = new Set(server.history.map((c) => c.id));
  for (const id of ids) {
    if (newest.get(id)!.version > cursor) {
      const kind = newest.get(id)!.kind;
      if (kind === 'profile' || kind === 'settings') continue;
      const local = await tableOf(db, kind).get(id);
      const held = local ? serverVersionOf(local) : null;
      if (held !== null) expect(held, `${id} held at a version the server made, at or below cursor ${cursor}`).toBeLessThanOrEqual(cursor);
      continue;
    }
    const change = latest.get(id);
    const kind = server.history.find((c) => c.id === id)!.kind;
    if (kind === 'profile' || kind === 'settings') {
      const doc = await db.docs.get('profile');
      if (!change) expect(doc, `profile before cursor ${cursor}`).toBeUndefined();
      else expect({ version: doc?.version, name: (doc?.data as { displayName?: string } | null)?.displayName }).toEqual({ version: change.version, name: (change.data as { displayName: string }).displayName });
      continue;
    }
    const local = await tableOf(db, kind).get(id);
    if (!change) {
      expect(local, `${id} is past cursor ${cursor}`).toBeUndefined();
    } else if (change.deleted) {
      expect(local?.deleted, `${id} deleted at ${change.version} ≤ cursor ${cursor}`).toBe(1);
    } else {
      expect(local, `${id} at ${change.version} ≤ cursor ${cursor}`).toBeDefined();
      expect(local!.deleted).toBe(0);
      expect(serverVersionOf(local!)).toBe(change.version);
      expect(contentOf(kind, local! as never)).toEqual(contentOf(kind, change.data as never));
    }
  }
}

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('put' as const), kind: fc.constantFrom('entry' as const, 'invoice' as const), slot: fc.nat({ max: 40 }), value: fc.integer({ min: 1, max: 500 }) }),
  fc.record({ op: fc.constant('delete' as const), slot: fc.nat({ max: 40 }) }),
  fc.record({ op: fc.constant('profile' as const), value: fc.nat({ max: 99 }) }),
);

const plan = fc.record({
  seed: fc.array(edit, { minLength: 1, maxLength: 40 }),
  pageSize: fc.integer({ min: 1, max: 8 }),
  applyBatch: fc.integer({ min: 1, max: 20 }),
  interruptions: fc.array(
    fc.record({ kind: fc.constantFrom<Interruption>('offline', 'reload', 'crash'), after: fc.nat({ max: 12 }), meanwhile: fc.array(edit, { maxLength: 4 }) }),
    { maxLength: 6 },
  ),
});

describe('an interrupted first sync', () => {
  it('resumes from its cursor and ends as an uninterrupted one, losing and repeating no page', async () => {
    await fc.assert(
      fc.asyncProperty(plan, async ({ seed, pageSize, applyBatch, interruptions }) => {
        const server = new PagedServer(pageSize);
        for (const e of seed) server.apply(e);
        const name = `first-sync-${(opened += 1)}`;
        const crash = { after: null as number | null };
        let db = openDevice(name, crash);
        let engine = engineFor(db, server, applyBatch);
        const databases = [name];

        /** One sync cycle: it must start from the stored cursor and go on from each page's. */
        const cycle = async (): Promise<boolean> => {
          const stored = await db.getMeta<number>('cursor', 0);
          const first = server.pulledFrom.length;
          const done = await engine.sync();
          // (A write cut short before the pull, such as the client id's, means no pull at all.)
          if (server.pulledFrom.length > first) expect(server.pulledFrom[first], 'a cycle resumes from the cursor it stored').toBe(stored);
          // Each later pull starts where the one before it ended (ahead of the apply or not).
          expect([...server.pulledFrom.slice(first)].every((from, i, all) => i === 0 || from >= all[i - 1]!)).toBe(true);
          return done;
        };

        for (const interruption of interruptions) {
          if (interruption.kind === 'crash') crash.after = interruption.after;
          else server.failAfter = interruption.after;
          await cycle();
          server.failAfter = null;
          crash.after = null;
          if (interruption.kind !== 'offline') {
            // The page reloads: a new database connection and engine on what was written.
            engine.stop();
            db.close();
            db = openDevice(name, crash);
            engine = engineFor(db, server, applyBatch);
          }
          await expectHoldsUpToCursor(db, server);
          for (const e of interruption.meanwhile) server.apply(e);
        }
        expect(await cycle(), 'with nothing in the way the sync completes').toBe(true);
        await expectHoldsUpToCursor(db, server);

        // The same server state pulled in one go onto a fresh device.
        const freshName = `first-sync-${(opened += 1)}`;
        databases.push(freshName);
        const fresh = openDevice(freshName, { after: null });
        expect(await engineFor(fresh, server, applyBatch).sync()).toBe(true);
        expect(await holdings(db)).toEqual(await holdings(fresh));

        engine.stop();
        for (const open of [db, fresh]) open.close();
        for (const database of databases) await new LocalDb(database, TEST_USER_ID).delete();
      }),
      { numRuns: 30 },
    );
    // Each run opens, fills and deletes several databases; a shared machine needs the time.
  }, 300_000);

  it('applies the pages in batches and says how many records it has brought in while more are coming', async () => {
    const server = new PagedServer(4);
    for (let slot = 0; slot < 25; slot += 1) server.apply({ op: 'put', kind: slot % 2 ? 'entry' : 'invoice', slot, value: slot + 1 });
    const db = openDevice(`first-sync-${(opened += 1)}`, { after: null });
    const engine = engineFor(db, server, 10);
    const statuses: SyncStatus[] = [];
    engine.subscribe((status) => statuses.push(status));
    expect(await engine.sync()).toBe(true);
    // Pages of 4 until 10 are in hand: 12 a batch. Each page is counted as it comes, and the
    // last one needs no progress report.
    expect(statuses.flatMap((s) => (s.state === 'syncing' && s.pulled !== undefined ? [s.pulled] : []))).toEqual([4, 8, 12, 16, 20, 24]);
    expect(statuses.at(-1)?.state).toBe('synced');
    expect(await db.entries.count()).toBe(12);
    expect(await db.invoices.count()).toBe(13);
    db.close();
    await db.delete();
  });
});
