import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { makeEntry } from '@/testing/sync-handle';
import { LocalDb } from './db';
import { storedCopies } from './pull';
import { tableOf } from './records';

let db: LocalDb;

afterEach(async () => {
  db.close();
  await db.delete();
});

describe("a pulled page's records the device holds (issue 30: found by their keys first)", () => {
  it('are exactly those a read of every id finds, the lowest and highest ids of the page included', async () => {
    const id = fc.integer({ min: 0, max: 40 }).map((n) => `entry-${String(n).padStart(3, '0')}`);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(id, { maxLength: 20 }), fc.array(id, { maxLength: 20 }), async (held, page) => {
        db = new LocalDb(`stored-copies-${crypto.randomUUID()}`, 'user');
        try {
          await db.entries.bulkPut(held.map((entryId) => makeEntry({ id: entryId, notes: `held ${entryId}` })));
          const every = await db.entries.bulkGet(page);
          const expected = new Map(page.flatMap((entryId, i) => (every[i] ? [[entryId, every[i]] as const] : [])));
          const found = new Map(await db.transaction('r', db.entries, () => storedCopies(tableOf(db, 'entry'), page)));
          expect(found).toEqual(expected);
        } finally {
          db.close();
          await db.delete();
        }
      }),
      { numRuns: 60 },
    );
    db = new LocalDb(`stored-copies-${crypto.randomUUID()}`, 'user');
  });
});
