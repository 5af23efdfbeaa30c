import { describe, expect, it } from 'vitest';
import type { Difference } from '@/core/statement-lines/match-statement';
import { firstBrokenLink } from './chain';
import { canQuery, makeQuery, queriesAbout, queryStage, readReminderDays, reminderDay, stillOwed, type QueryTracking } from './query';

const diff = (kind: Difference['kind'], amount: number, date: string | null = '2026-03-02'): Difference => ({
  kind,
  date,
  words: `${kind} words`,
  logged: 'logged',
  paid: 'paid',
  cardRate: kind === 'fewerStops' ? 150 : null,
  amount,
  entryIds: ['e1'],
  lineIds: ['l1'],
});

const untracked: QueryTracking = { sentOn: null, answeredOn: null, paidBackAmount: null, paidBackOn: null, paidBackCheckId: null, closedOn: null, note: '' };

describe('making a query', () => {
  it('freezes every difference with an amount, in order, chained, with their total', () => {
    const differences = [diff('fewerStops', 450), diff('addressCap', 0), diff('dayNotInLog', -700, '2026-03-04'), diff('linesAgainstTotal', 25, null)];
    const query = makeQuery('check-1', differences, '2026-03-20')!;
    expect(query.items.map((i) => [i.kind, i.date, i.amount, i.cardRate])).toEqual([
      ['fewerStops', '2026-03-02', 450, 150],
      ['dayNotInLog', '2026-03-04', -700, null],
      ['linesAgainstTotal', null, 25, null],
    ]);
    expect(query.total).toBe(450 - 700 + 25);
    expect(query).toMatchObject({ statementCheckId: 'check-1', madeOn: '2026-03-20', itemsVersion: 2, ...untracked });
    expect(firstBrokenLink(query.items)).toBeNull();
    // The records behind a difference stay on the device's check, not in the frozen letter.
    expect(Object.keys(query.items[0]!).sort()).toEqual(['amount', 'cardRate', 'date', 'hash', 'kind', 'logged', 'paid', 'words']);
  });

  it('asks nothing about money already paid back or a figure shown for context', () => {
    const explained = [diff('paidBack', -350), diff('paidBackNotFound', 0), diff('addressCap', 0)];
    expect(canQuery(explained)).toBe(false);
    expect(makeQuery('c', explained, '2026-03-20')).toBeNull();
    expect(canQuery([...explained, diff('unexplained', 1)])).toBe(true);
  });
});

describe('the queries about a check', () => {
  it('are that check’s, oldest first: by the day made, then by when the device stored them', () => {
    const q = (id: string, statementCheckId: string, madeOn: string, createdAt: string) => ({ id, statementCheckId, madeOn, createdAt });
    const all = [q('late', 'c1', '2026-03-21', '2026-03-21T08:00:00Z'), q('other', 'c2', '2026-03-01', '2026-03-01T08:00:00Z'), q('second', 'c1', '2026-03-20', '2026-03-20T09:00:00Z'), q('first', 'c1', '2026-03-20', '2026-03-20T08:00:00Z')];
    expect(queriesAbout('c1', all).map((x) => x.id)).toEqual(['first', 'second', 'late']);
    expect(queriesAbout('none', all)).toEqual([]);
  });
});

describe('tracking', () => {
  it('goes made, sent, answered, paid back, closed by its furthest step', () => {
    expect(queryStage(untracked)).toBe('made');
    expect(queryStage({ ...untracked, sentOn: '2026-03-21' })).toBe('sent');
    expect(queryStage({ ...untracked, sentOn: '2026-03-21', answeredOn: '2026-03-25' })).toBe('answered');
    expect(queryStage({ ...untracked, paidBackAmount: 100, paidBackOn: '2026-04-01' })).toBe('paidBack');
    expect(queryStage({ ...untracked, closedOn: '2026-04-02', paidBackAmount: 100 })).toBe('closed');
  });

  it('is still owed its total less what was paid back', () => {
    expect(stillOwed({ total: 1_000, paidBackAmount: null })).toBe(1_000);
    expect(stillOwed({ total: 1_000, paidBackAmount: 400 })).toBe(600);
    expect(stillOwed({ total: 1_000, paidBackAmount: 1_200 })).toBe(0);
  });

  it('is due its reminder N days after it was sent, only while unanswered', () => {
    expect(reminderDay(untracked, 14)).toBeNull();
    const sent = { ...untracked, sentOn: '2026-03-21' };
    expect(reminderDay(sent, 14)).toBe('2026-04-04');
    expect(reminderDay(sent, 1)).toBe('2026-03-22');
    expect(reminderDay({ ...sent, answeredOn: '2026-03-22' }, 14)).toBeNull();
    expect(reminderDay({ ...sent, paidBackAmount: 5, paidBackOn: '2026-03-30' }, 14)).toBeNull();
    expect(reminderDay({ ...sent, closedOn: '2026-03-30' }, 14)).toBeNull();
  });

  it('reads the reminder’s days as typed: a whole number from 1 to 90', () => {
    expect(readReminderDays('1')).toEqual({ days: 1 });
    expect(readReminderDays(' 90 ')).toEqual({ days: 90 });
    expect(readReminderDays('014')).toEqual({ days: 14 });
    for (const bad of ['0', '91', '', ' ', '7.5', '-3', '1e1', 'ten']) expect(readReminderDays(bad)).toEqual({ error: 'Choose 1 to 90 days' });
  });
});
