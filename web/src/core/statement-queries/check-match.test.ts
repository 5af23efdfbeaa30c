import { describe, expect, it } from 'vitest';
import { priceWithCard } from '@/core/pay/pay';
import type { LoggedDay, MatchedLine } from '@/core/statement-lines/match-statement';
import { makeRateCard } from '@/testing/pay-fixtures';
import { C, WEEKLY } from '@/testing/statement-arbitraries';
import { matchCheck } from './check-match';

const card = makeRateCard('card', C, { perStop: [{ rate: 150 }] });
const day = (id: string, date: string, stops: number): LoggedDay => {
  const base = { id, date, courierId: C, stops, parcels: null, collections: null, failed: null, extra: 0, startTime: null, finishTime: null };
  return { ...base, total: priceWithCard(card, base) };
};
const line = (id: string, invoiceId: string, date: string, lineType: MatchedLine['lineType'], quantity: number, amount: number): MatchedLine => ({
  id,
  invoiceId,
  date,
  lineType,
  quantity,
  amount,
  band: null,
  rate: null,
  reference: lineType === 'adjustment' ? 'Refund' : '',
  courierId: C,
  lineKey: id,
});
const check = (id: string, paid: number) => ({ id, periodStart: '2025-03-16', periodEnd: '2025-03-22', paid, courierId: C });
const days = [day('a', '2025-03-17', 100), day('b', '2025-03-18', 100)];

describe('a check matched for "Query this"', () => {
  it('reads only its own lines: another check’s lines of the same days are not its', () => {
    const lines = [line('mine', 'c1', '2025-03-17', 'stop', 100, 15_000), line('theirs', 'c2', '2025-03-18', 'stop', 100, 15_000)];
    const match = matchCheck({ check: check('c1', 15_000), days, lines, cards: [card], deductions: [], calendar: WEEKLY, queries: [] });
    expect(match.differences.map((d) => [d.kind, d.date, d.amount])).toEqual([['dayNotOnStatement', '2025-03-18', 15_000]]);
  });

  it('without lines of its own, names its whole difference once', () => {
    const match = matchCheck({ check: check('c1', 20_000), days, lines: [line('theirs', 'c2', '2025-03-18', 'stop', 100, 15_000)], cards: [card], deductions: [], calendar: WEEKLY, queries: [] });
    expect(match.differences.map((d) => [d.kind, d.date, d.amount])).toEqual([['unexplained', null, 10_000]]);
  });

  it('explains money paid back for an earlier query that it carries, so it counts once', () => {
    const lines = [line('s1', 'c1', '2025-03-17', 'stop', 100, 15_000), line('s2', 'c1', '2025-03-18', 'stop', 100, 15_000), line('adj', 'c1', '2025-03-18', 'adjustment', 1, 1_968)];
    const queries = [{ id: 'q', madeOn: '2025-03-10', paidBackAmount: 1_968, paidBackCheckId: 'c1' }];
    const match = matchCheck({ check: check('c1', 31_968), days, lines, cards: [card], deductions: [], calendar: WEEKLY, queries });
    expect(match.differences.map((d) => [d.kind, d.amount, d.words])).toEqual([['paidBack', -1_968, '£19.68 paid back for the query of 10/03/2025']]);
    expect(match.difference).toBe(-1_968);
  });
});
