// First: the on-device database must exist before Dexie loads.
import { createTestSyncHandle, makeEntry, type TestSyncHandle } from '@/testing/sync-handle';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalEntry, OutboxItem } from '@/sync/types';
import { keepAsShifts, mergeDoubles, sameDayEntries, undoSameDayChange } from './commands';
import { duplicateDays } from './same-day';

let handles: TestSyncHandle[] = [];
afterEach(() => {
  for (const handle of handles) handle.db.close();
  handles = [];
});

function device(): TestSyncHandle {
  const handle = createTestSyncHandle();
  handles.push(handle);
  return handle;
}

/** The same day logged on two devices offline, as both devices hold it once they have synced. */
const doubles = (): LocalEntry[] => [
  makeEntry({ id: '0190a6e2-0000-7000-8000-00000000000b', date: '2025-11-27', stops: 128, total: 24_444, notes: 'Phone', updatedAt: '2025-11-27T18:00:00Z' }),
  makeEntry({ id: '0190a6e2-0000-7000-8000-00000000000a', date: '2025-11-27', stops: 130, total: 24_740, notes: 'Tablet', updatedAt: '2025-11-27T19:00:00Z' }),
];

const live = async (handle: TestSyncHandle) => (await handle.db.entries.toArray()).filter((entry) => entry.deleted === 0);
const outbox = async (handle: TestSyncHandle) => (await handle.db.outbox.orderBy('seq').toArray()).map((item) => [item.name, item.recordId]);

describe('mergeDoubles', () => {
  it('keeps the smallest id with the chosen figures and both notes, deletes the other, all through the outbox', async () => {
    const handle = device();
    const [phone, tablet] = doubles();
    await handle.db.entries.bulkPut([phone!, tablet!]);
    const change = await mergeDoubles(handle, [phone!.id, tablet!.id], phone!.id);

    const left = await live(handle);
    expect(left).toHaveLength(1);
    // The tablet's copy has the smaller id, so it stays (on every device), with the phone's figures.
    expect(left[0]).toMatchObject({ id: tablet!.id, stops: 128, total: 24_444, notes: 'Phone · Tablet', separateShift: false, syncState: 'pending' });
    expect(await handle.db.entries.get(phone!.id)).toMatchObject({ deleted: 1, syncState: 'pending' });
    expect(await outbox(handle)).toEqual([
      ['entry.put', tablet!.id],
      ['entry.delete', phone!.id],
    ]);
    expect(handle.requestSync).toHaveBeenCalled();
    expect(duplicateDays(left)).toEqual([]);

    // Undo: both back as they were, through the outbox too.
    await undoSameDayChange(handle, change);
    const restored = await live(handle);
    expect(restored.map((e) => [e.id, e.stops, e.notes]).sort()).toEqual([
      [tablet!.id, 130, 'Tablet'],
      [phone!.id, 128, 'Phone'],
    ].sort());
  });

  it('leaves alone a day deleted since the choice was shown', async () => {
    const handle = device();
    const [phone, tablet] = doubles();
    await handle.db.entries.bulkPut([phone!, { ...tablet!, deleted: 1 }]);
    expect(await mergeDoubles(handle, [phone!.id, tablet!.id], phone!.id)).toEqual({ rewritten: [], deleted: [] });
    expect(await handle.db.outbox.count()).toBe(0);
  });
});

describe('keepAsShifts', () => {
  it('marks every copy but the smallest id as a separate shift, so the day is never flagged again', async () => {
    const handle = device();
    const [phone, tablet] = doubles();
    await handle.db.entries.bulkPut([phone!, tablet!]);
    const change = await keepAsShifts(handle, [phone!.id, tablet!.id]);
    expect(await handle.db.entries.get(phone!.id)).toMatchObject({ separateShift: true, total: 24_444, syncState: 'pending' });
    expect(await handle.db.entries.get(tablet!.id)).toMatchObject({ separateShift: false });
    expect(await outbox(handle)).toEqual([['entry.put', phone!.id]]);
    const items = await handle.db.outbox.toArray();
    expect(items[0]!.args).toMatchObject({ id: phone!.id, separateShift: true });
    expect(duplicateDays(await live(handle))).toEqual([]);

    await undoSameDayChange(handle, change);
    expect(duplicateDays(await live(handle))).toHaveLength(1);
  });
});

describe('sameDayEntries', () => {
  it('finds the live days of one courier on one date, leaving out the day being edited', async () => {
    const handle = device();
    const [phone, tablet] = doubles();
    await handle.db.entries.bulkPut([phone!, tablet!, makeEntry({ date: '2025-11-27', courierId: 'evri' }), makeEntry({ date: '2025-11-27', deleted: 1 })]);
    expect((await sameDayEntries(handle.db, phone!.courierId, '2025-11-27')).map((e) => e.id).sort()).toEqual([phone!.id, tablet!.id].sort());
    expect((await sameDayEntries(handle.db, phone!.courierId, '2025-11-27', phone!.id)).map((e) => e.id)).toEqual([tablet!.id]);
  });
});

/**
 * The server's rule for pushed mutations, as crates/domain/src/merge.rs applies it: a put
 * writes the record unless it was deleted; a delete wins for good.
 */
function applyOnServer(server: Map<string, { deleted: boolean; args: Record<string, unknown> }>, items: readonly OutboxItem[]) {
  for (const item of items) {
    const current = server.get(item.recordId);
    if (item.name === 'entry.delete') server.set(item.recordId, { deleted: true, args: current?.args ?? {} });
    else if (!current?.deleted) server.set(item.recordId, { deleted: false, args: item.args });
  }
}

describe('two devices resolving the same doubles (property)', () => {
  it('end with one live day, never none, whichever each chose and whichever reaches the server first', async () => {
    const choice = fc.constantFrom<'merge-first' | 'merge-second' | 'keep'>('merge-first', 'merge-second', 'keep');
    await fc.assert(
      fc.asyncProperty(choice, choice, fc.boolean(), async (onPhone, onTablet, phoneFirst) => {
        const server = new Map<string, { deleted: boolean; args: Record<string, unknown> }>();
        const copies = doubles();
        for (const copy of copies) server.set(copy.id, { deleted: false, args: { ...copy } });
        const pushed: OutboxItem[][] = [];
        for (const action of [onPhone, onTablet]) {
          const handle = device();
          await handle.db.entries.bulkPut(doubles());
          const ids = copies.map((copy) => copy.id);
          if (action === 'keep') await keepAsShifts(handle, ids);
          else await mergeDoubles(handle, ids, action === 'merge-first' ? ids[0]! : ids[1]!);
          pushed.push(await handle.db.outbox.orderBy('seq').toArray());
        }
        for (const items of phoneFirst ? pushed : [...pushed].reverse()) applyOnServer(server, items);
        const alive = [...server.entries()].filter(([, record]) => !record.deleted);
        // The smallest id is never deleted by either device: the day is never lost.
        expect(alive.map(([id]) => id)).toContain(copies[1]!.id);
        const merged = onPhone !== 'keep' || onTablet !== 'keep';
        expect(alive).toHaveLength(merged ? 1 : 2);
        if (!merged) expect(alive.filter(([, record]) => record.args.separateShift === true)).toHaveLength(1);
      }),
      { numRuns: 30 },
    );
  });
});
