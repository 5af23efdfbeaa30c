import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryFieldsBeforeCouriers } from '@/sync/default-courier';
import type { EntryContent } from '@/sync/types';
import { duplicateDays, figuresDiffer, firstDays, groupDays, loggedTwice, mergedDay, sameDayKey, survivorOf } from './same-day';

const day = (id: string, over: Partial<EntryContent> = {}) => ({
  id,
  date: '2025-11-27',
  stops: 128,
  extra: 0,
  notes: '',
  total: 24_444,
  ...entryFieldsBeforeCouriers('dpd'),
  ...over,
});

describe('groupDays', () => {
  it('groups by courier and date, in the order the first of each came', () => {
    const entries = [day('a'), day('b', { courierId: 'evri' }), day('c'), day('d', { date: '2025-11-26' })];
    expect(groupDays(entries).map((g) => [g.key, g.entries.map((e) => e.id)])).toEqual([
      ['dpd|2025-11-27', ['a', 'c']],
      ['evri|2025-11-27', ['b']],
      ['dpd|2025-11-26', ['d']],
    ]);
    expect(sameDayKey(entries[0]!)).toBe('dpd|2025-11-27');
  });
});

describe('loggedTwice and duplicateDays', () => {
  it('flags two or more entries of one courier’s day that are not marked as separate shifts', () => {
    const [group] = groupDays([day('a'), day('b')]);
    expect(loggedTwice(group!).map((e) => e.id)).toEqual(['a', 'b']);
  });

  it('never flags a deliberate extra shift, nor a day of another courier', () => {
    expect(duplicateDays([day('a'), day('b', { separateShift: true })])).toEqual([]);
    expect(duplicateDays([day('a'), day('b', { courierId: 'evri' })])).toEqual([]);
    expect(duplicateDays([day('a', { separateShift: true }), day('b', { separateShift: true })])).toEqual([]);
  });

  it('flags only the unmarked copies when a shift is there too', () => {
    const days = duplicateDays([day('a'), day('s', { separateShift: true }), day('b')]);
    expect(days.map((d) => d.entries.map((e) => e.id))).toEqual([['a', 'b']]);
  });
});

describe('survivorOf', () => {
  it('is the smallest id, whatever the order (the same on every device)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.uuid(), { minLength: 1, maxLength: 6 }), (ids) => {
        const entries = ids.map((id) => day(id));
        const expected = [...ids].sort()[0];
        expect(survivorOf(entries).id).toBe(expected);
        expect(survivorOf([...entries].reverse()).id).toBe(expected);
      }),
    );
  });
});

describe('figuresDiffer', () => {
  it('ignores the notes and the shift mark, and sees any figure', () => {
    expect(figuresDiffer([day('a', { notes: 'x' }), day('b', { notes: 'y', separateShift: true })])).toBe(false);
    expect(figuresDiffer([day('a'), day('b', { stops: 129, total: 24_642 })])).toBe(true);
    expect(figuresDiffer([day('a'), day('b', { extra: 500, total: 24_944 })])).toBe(true);
    expect(figuresDiffer([day('a'), day('b', { startTime: '07:00', finishTime: '15:00' })])).toBe(true);
  });
});

describe('mergedDay', () => {
  it('takes the chosen figures and every distinct note, and is no separate shift', () => {
    const a = day('a', { notes: 'Rain' });
    const b = day('b', { stops: 130, total: 25_000, notes: 'Depot late', separateShift: true });
    const c = day('c', { notes: 'Rain' });
    expect(mergedDay([a, b, c], b, 1_000)).toEqual({ ...b, notes: 'Depot late · Rain', separateShift: false });
    expect(mergedDay([a, b], a, 1_000).notes).toBe('Rain · Depot late');
  });

  it('keeps the notes within the limit', () => {
    const long = 'x'.repeat(900);
    const merged = mergedDay([day('a', { notes: long }), day('b', { notes: 'y'.repeat(900) })], day('a', { notes: long }), 1_000);
    expect(merged.notes).toHaveLength(1_000);
  });
});

describe('the first days and the doubles without grouping every day (issue 30)', () => {
  // Few dates and couriers, so days share a date, a courier logs twice, and shifts are kept.
  const entryArb = fc.record({
    id: fc.uuid(),
    date: fc.constantFrom('2024-04-05', '2024-04-06', '2025-04-05', '2025-04-06', '2025-04-07'),
    courierId: fc.constantFrom('dpd', 'evri'),
    separateShift: fc.boolean(),
  });
  // As the live entries come (newest first), oldest first, or in no order at all.
  const listArb = fc.tuple(fc.array(entryArb, { maxLength: 25 }), fc.constantFrom('newest', 'oldest', 'as made')).map(([entries, order]) =>
    order === 'as made' ? entries : [...entries].sort((a, b) => (order === 'newest' ? b.date.localeCompare(a.date) : a.date.localeCompare(b.date))),
  );

  it('firstDays is the first groups of groupDays, and says whether groupDays has more', () => {
    fc.assert(
      fc.property(listArb, fc.nat({ max: 6 }), (entries, count) => {
        const all = groupDays(entries);
        expect(firstDays(entries, count)).toEqual({ days: all.slice(0, count), more: all.length > count });
      }),
      { numRuns: 500 },
    );
  });

  it('duplicateDays is every group of groupDays with its doubles, in the same order', () => {
    fc.assert(
      fc.property(listArb, (entries) => {
        const whole = groupDays(entries).flatMap((group) => (loggedTwice(group).length > 0 ? [{ ...group, entries: loggedTwice(group) }] : []));
        expect(duplicateDays(entries)).toEqual(whole);
      }),
      { numRuns: 500 },
    );
  });
});
