import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { snapshotOf, type SentRecord } from '@/core/mtd/sent';
import { fileNow, uncarriedChanges } from '@/core/mtd/uncarried';
import type { TaxRecords } from '@/core/tax/tax-summary';
import { LocalDb } from '@/sync/db';
import { entryArb, expenseArb, mileageArb, taxRecordsArb } from '@/testing/tax-arbitraries';
import { makeEntry } from '@/testing/sync-handle';
import { readTaxRecords, readTaxRecordsBesidesEntries, readTaxRecordsBetween, withEntries } from './tax-records';
import { byNewest, readEntries } from './use-live-entries';

const userId = '0190a6e2-7c1d-7000-8000-0000000000b3';
let db: LocalDb;

afterEach(async () => {
  db.close();
  await db.delete();
});

const stamps = (deleted: 0 | 1, updatedAt = '2025-01-01T00:00:00.000Z') => ({ createdAt: '2025-01-01T00:00:00.000Z', updatedAt, deleted, syncState: 'synced' as const, server: null });

/** Stores `records` as the device would (the deleted ones too). */
async function store(records: Pick<TaxRecords, 'entries' | 'expenses' | 'mileage'>, deleted: (id: string) => boolean, updatedAt?: string) {
  const flag = (id: string): 0 | 1 => (deleted(id) ? 1 : 0);
  await db.entries.bulkPut(records.entries.map((e) => makeEntry({ ...e, ...stamps(flag(e.id), updatedAt) })));
  await db.expenses.bulkPut(records.expenses.map((e) => ({ ...e, ...stamps(flag(e.id), updatedAt) }) as never));
  await db.mileage.bulkPut(records.mileage.map((m) => ({ ...m, ...stamps(flag(m.id), updatedAt) }) as never));
}

const ids = (records: readonly { id: string }[]) => records.map((record) => record.id);

describe('the tax records of a range of days (issue 30: read by the date indexes)', () => {
  it('holds the days and mileage on the first and last date, not the days either side; expenses up to the last date', async () => {
    db = new LocalDb(`tax-records-${crypto.randomUUID()}`, userId);
    const entry = (id: string, date: string) => ({ id, date, total: 100, courierId: userId, stops: 1 });
    const trip = (id: string, date: string) => ({ id, date, vehicleId: 'van', courierId: null, odometerStart: null, odometerEnd: null, note: '', businessMiles: 10, commuteMiles: 0 });
    const cost = (id: string, date: string, repeat: 'once' | 'weekly') => ({ id, date, amount: 500, category: 'fuel', vehicleId: null, courierId: null, note: '', repeat, repeatUntil: null, receipts: [] });
    await store(
      {
        entries: [entry('e-before', '2025-04-05'), entry('e-first', '2025-04-06'), entry('e-last', '2026-04-05'), entry('e-after', '2026-04-06'), entry('e-gone', '2025-06-01')],
        mileage: [trip('m-before', '2025-04-05'), trip('m-first', '2025-04-06'), trip('m-last', '2026-04-05'), trip('m-after', '2026-04-06')],
        expenses: [cost('x-repeats', '2024-01-01', 'weekly'), cost('x-last', '2026-04-05', 'once'), cost('x-after', '2026-04-06', 'once')],
      } as never,
      (id) => id === 'e-gone',
    );
    const records = await readTaxRecordsBetween(db, '2025-04-06', '2026-04-05');
    expect(ids(records.entries)).toEqual(['e-first', 'e-last']);
    expect(ids(records.mileage)).toEqual(['m-first', 'm-last']);
    expect(ids(records.expenses)).toEqual(['x-last', 'x-repeats']);
  });

  it('is the whole read less the records outside the range, in the same order', async () => {
    const day = fc.integer({ min: 0, max: 425 }).map((n) => new Date(Date.UTC(2025, 2, 6 + n)).toISOString().slice(0, 10));
    await fc.assert(
      fc.asyncProperty(
        fc.record({ entries: fc.array(entryArb, { maxLength: 15 }), expenses: fc.array(expenseArb, { maxLength: 8 }), mileage: fc.array(mileageArb, { maxLength: 8 }) }),
        fc.func(fc.boolean()),
        day,
        day,
        fc.option(fc.nat()),
        fc.option(fc.nat()),
        async (records, deleted, randomA, randomB, pickA, pickB) => {
          db = new LocalDb(`tax-records-${crypto.randomUUID()}`, userId);
          try {
            await store(records, deleted);
            // Often a record's own date, so the range's ends land on records.
            const dates = [...records.entries, ...records.expenses, ...records.mileage].map((r) => r.date);
            const end = (random: string, pick: number | null) => (pick === null || dates.length === 0 ? random : dates[pick % dates.length]!);
            const [a, b] = [end(randomA, pickA), end(randomB, pickB)];
            const [from, to] = a <= b ? [a, b] : [b, a];
            const whole = await readTaxRecords(db);
            const some = await readTaxRecordsBetween(db, from, to);
            expect(some).toEqual({
              ...whole,
              entries: whole.entries.filter((e) => e.date >= from && e.date <= to),
              mileage: whole.mileage.filter((m) => m.date >= from && m.date <= to),
              expenses: whole.expenses.filter((e) => e.date <= to),
            });
          } finally {
            db.close();
            await db.delete();
          }
        },
      ),
      { numRuns: 40 },
    );
    db = new LocalDb(`tax-records-${crypto.randomUUID()}`, userId);
  });

  it('gives the reminders the same changes since sent as the whole log (2025-26 updates sent, records around it)', async () => {
    const quarterEnds = ['2025-07-05', '2025-10-05', '2026-01-05', '2026-04-05'];
    await fc.assert(
      fc.asyncProperty(taxRecordsArb, taxRecordsArb, fc.integer({ min: 1, max: 4 }), async (then, now, quarters) => {
        db = new LocalDb(`tax-records-${crypto.randomUUID()}`, userId);
        try {
          // The updates were sent from `then`; the device now holds `now`, saved after them.
          const sent: SentRecord[] = quarterEnds.slice(0, quarters).map((periodEnd, i) => {
            const period = { taxYear: '2025-26', periodStart: '2025-04-06', periodEnd, shape: 'itemised' as const };
            const file = fileNow(then, period, '2026-06-01');
            const snapshot = snapshotOf({ year: '2025-26', quarter: i + 1, quarters: 'standard', ...period, file, sentOn: '2025-12-01', product: 'Bridger', reference: '', supersedes: null });
            return { id: `sent-${i}`, createdAt: '2025-12-01T00:00:00Z', ...snapshot };
          });
          await store(now, () => false, '2026-01-01T00:00:00.000Z');
          const whole = uncarriedChanges(await readTaxRecords(db), sent, '2026-06-01');
          const some = uncarriedChanges(await readTaxRecordsBetween(db, '2025-04-01', '2026-04-05'), sent, '2026-06-01');
          expect(some).toEqual(whole);
        } finally {
          db.close();
          await db.delete();
        }
      }),
      { numRuns: 30 },
    );
    db = new LocalDb(`tax-records-${crypto.randomUUID()}`, userId);
  });
});

describe('the tax records with the shared live entries (issue 30: the tax year reads the days once)', () => {
  it('are the whole read: the same records in the same order, deleted ones left out', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ entries: fc.array(entryArb, { maxLength: 15 }), expenses: fc.array(expenseArb, { maxLength: 8 }), mileage: fc.array(mileageArb, { maxLength: 8 }) }),
        fc.func(fc.boolean()),
        async (records, deleted) => {
          db = new LocalDb(`tax-records-${crypto.randomUUID()}`, userId);
          try {
            await store(records, deleted);
            // The live entries come newest first; the tax records in id order, as the whole read.
            expect(withEntries(await readTaxRecordsBesidesEntries(db), await readEntries(db))).toEqual(await readTaxRecords(db));
          } finally {
            db.close();
            await db.delete();
          }
        },
      ),
      { numRuns: 40 },
    );
    db = new LocalDb(`tax-records-${crypto.randomUUID()}`, userId);
  });
});

describe('the live entries read from the whole table (issue 30: no per-record tracking in a live query)', () => {
  it('are the live days the [deleted+date] index holds, newest first, with deleted ones and same-day ones mixed in', async () => {
    // Few dates, so days share a date and the order falls to createdAt and then the id.
    const date = fc.constantFrom('2024-04-05', '2024-04-06', '2025-04-05', '2025-04-06');
    const created = fc.constantFrom('2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ entry: entryArb, date, created, deleted: fc.boolean() }), { maxLength: 20 }), async (rows) => {
        db = new LocalDb(`live-entries-${crypto.randomUUID()}`, userId);
        try {
          await db.entries.bulkPut(rows.map(({ entry, date, created, deleted }) => makeEntry({ ...entry, date, ...stamps(deleted ? 1 : 0), createdAt: created })));
          const byIndex = (await db.entries.where('[deleted+date]').between([0, Dexie.minKey], [0, Dexie.maxKey]).toArray()).sort(byNewest);
          expect(await readEntries(db)).toEqual(byIndex);
        } finally {
          db.close();
          await db.delete();
        }
      }),
      { numRuns: 40 },
    );
    db = new LocalDb(`live-entries-${crypto.randomUUID()}`, userId);
  });
});
