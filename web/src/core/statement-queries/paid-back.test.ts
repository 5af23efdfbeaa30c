import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchStatement, type Difference, type MatchedLine, type MatchInput, type StatementMatch } from '@/core/statement-lines/match-statement';
import { C, inputArb } from '@/testing/statement-arbitraries';
import { claimsOn, explainPaidBack } from './paid-back';
import { makeQuery } from './query';

const sum = (differences: readonly Difference[], kinds?: readonly string[]) => differences.filter((d) => !kinds || kinds.includes(d.kind)).reduce((s, d) => s + d.amount, 0);

function adjustmentLine(amount: number, date: string): MatchedLine {
  return { id: 'paid-back-line', invoiceId: 'later', courierId: C, lineKey: 'pb', date, lineType: 'adjustment', band: null, quantity: 1, rate: null, amount, reference: 'Query refund' };
}

/** The later statement carrying `amount` paid back: as an adjustment line, or only in a higher total. */
function carrying(later: MatchInput, amount: number, asLine: boolean): MatchInput {
  const lines = asLine ? [...later.lines, adjustmentLine(amount, later.check.periodEnd)] : later.lines;
  return { ...later, lines, check: { ...later.check, paid: later.check.paid + amount } };
}

describe('money paid back on a later statement', () => {
  it('explains the later adjustment as paid back for the query, with the amounts unchanged', () => {
    const match: StatementMatch = {
      owed: 10_000,
      paid: 10_350,
      linesTotal: 10_350,
      difference: -350,
      differences: [{ kind: 'adjustment', date: '2026-04-05', words: 'Adjustment "Query refund" of £5.00, not in your log', logged: 'not in your log', paid: '£5.00', cardRate: null, amount: -500, entryIds: [], lineIds: ['l9'] }, { kind: 'fewerStops', date: '2026-04-01', words: '1 stop logged but not paid', logged: '', paid: '', cardRate: 150, amount: 150, entryIds: [], lineIds: [] }],
    };
    const explained = explainPaidBack(match, [{ queryId: 'q1', madeOn: '2026-03-20', amount: 350 }]);
    expect(explained.differences.map((d) => [d.kind, d.amount, d.words])).toEqual([
      ['paidBack', -350, '£3.50 paid back for the query of 20/03/2026'],
      ['adjustment', -150, 'Adjustment "Query refund" of £5.00, not in your log (£3.50 of it paid back for the query of 20/03/2026)'],
      ['fewerStops', 150, '1 stop logged but not paid'],
    ]);
    expect(sum(explained.differences)).toBe(match.difference);
    // A query made from the later statement asks only about what is left.
    expect(makeQuery('later', explained.differences, '2026-04-10')!.items.map((i) => i.kind)).toEqual(['adjustment', 'fewerStops']);
  });

  it('names money recorded as paid back that the statement does not carry, at £0.00', () => {
    const match: StatementMatch = { owed: 0, paid: 0, linesTotal: 0, difference: 0, differences: [] };
    const explained = explainPaidBack(match, [{ queryId: 'q1', madeOn: '2026-03-20', amount: 350 }]);
    expect(explained.differences.map((d) => [d.kind, d.amount, d.words])).toEqual([['paidBackNotFound', 0, '£3.50 recorded as paid back for the query of 20/03/2026 is not on this statement']]);
  });

  it('reads the claims a check carries from the queries that name it', () => {
    const queries = [
      { id: 'q1', madeOn: '2026-03-20', paidBackAmount: 350, paidBackCheckId: 'later' },
      { id: 'q2', madeOn: '2026-03-21', paidBackAmount: null, paidBackCheckId: null },
      { id: 'q3', madeOn: '2026-03-22', paidBackAmount: 100, paidBackCheckId: 'other' },
    ];
    expect(claimsOn('later', queries)).toEqual([{ queryId: 'q1', madeOn: '2026-03-20', amount: 350 }]);
  });

  it('for generated statements and queries, the differences still add up and the money counts once across the two checks', () => {
    fc.assert(
      fc.property(inputArb, inputArb, fc.integer({ min: 1, max: 60_000 }), fc.boolean(), (earlierInput, laterInput, paidBack, asLine) => {
        const earlier = matchStatement(earlierInput);
        const query = makeQuery('earlier', earlier.differences, '2025-03-25');
        // The query asks about every difference with an amount: its total is the earlier statement's difference.
        expect(query?.total ?? 0).toBe(earlier.difference);

        const later = matchStatement(carrying(laterInput, paidBack, asLine));
        const explained = explainPaidBack(later, [{ queryId: 'q', madeOn: '2025-03-25', amount: paidBack }]);
        // Relabelled, never changed: still the statement's difference, to the penny.
        expect(explained.difference).toBe(later.difference);
        expect(sum(explained.differences)).toBe(explained.difference);
        const found = -sum(explained.differences, ['paidBack']);
        expect(found).toBeGreaterThanOrEqual(0);
        expect(found).toBeLessThanOrEqual(paidBack);
        // Carried as its own adjustment line, it is found whole.
        if (asLine) expect(found).toBe(paidBack);
        // Taken only from overpayments, and only once: those kinds lose exactly what was found.
        const overpayments = ['adjustment', 'linesAgainstTotal', 'unexplained'];
        expect(sum(explained.differences, overpayments)).toBe(sum(later.differences, overpayments) + found);
        // What is not found is named, never hidden.
        expect(explained.differences.some((d) => d.kind === 'paidBackNotFound')).toBe(found < paidBack);
        // Across the two checks: what is still owed on the earlier query plus what a query on the
        // later check would ask is the two differences added up, with the money paid back
        // counted once: whatever of it the later statement does not carry is still owed.
        const laterQuery = makeQuery('later', explained.differences, '2025-04-10');
        const stillOwedEarlier = (query?.total ?? 0) - paidBack;
        expect(stillOwedEarlier + (laterQuery?.total ?? 0)).toBe(earlier.difference + later.difference - (paidBack - found));
        expect(laterQuery?.items.some((i) => i.kind === 'paidBack') ?? false).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
