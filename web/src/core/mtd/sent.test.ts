import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { taxSummary, type TaxRecords } from '@/core/tax/tax-summary';
import { COURIERS, entryArb, taxRecordsArb } from '@/testing/tax-arbitraries';
import { changesSinceSent, intact, snapshotOf, standingSent, type SentRecord } from './sent';
import { updateFigures, updateJson } from './update';

const YEAR = '2025-26' as const;
const TODAY = '2026-06-01';

function quarterFile(records: TaxRecords, number: number): { file: string; periodStart: string; periodEnd: string } {
  const summary = taxSummary(records, YEAR, TODAY, 'uk');
  const quarter = summary.quarters[number - 1]!;
  const file = updateJson(updateFigures({ year: YEAR, periodStart: quarter.periodStart, periodEnd: quarter.to, totals: quarter.totals }, 'itemised', summary.totals.turnover));
  return { file, periodStart: quarter.periodStart, periodEnd: quarter.to };
}

function send(records: TaxRecords, number: number, id: string, supersedes: string | null = null, createdAt = '2025-08-01T10:00:00Z'): SentRecord {
  const { file, periodStart, periodEnd } = quarterFile(records, number);
  return { id, createdAt, ...snapshotOf({ year: YEAR, quarter: number, quarters: 'standard', periodStart, periodEnd, shape: 'itemised', file, sentOn: '2025-08-01', product: ' Bridger ', reference: 'REF', supersedes }) };
}

const EVRI = COURIERS[0]!.id;
const none: TaxRecords = { entries: [], couriers: COURIERS, vehicles: [], expenses: [], deductions: [], mileage: [] };

describe('a sent update', () => {
  it('keeps the exact file with its SHA-256, trimmed words, and nothing else', () => {
    const sent = send({ ...none, entries: [{ id: 'e1', date: '2025-05-01', total: 100_00, courierId: EVRI, stops: 10 }] }, 1, 's1');
    expect(sent).toMatchObject({ taxYear: YEAR, quarter: 1, product: 'Bridger', reference: 'REF', periodStart: '2025-04-06', periodEnd: '2025-07-05' });
    expect(JSON.parse(sent.file).periodIncome).toEqual({ turnover: 100 });
    expect(intact(sent)).toBe(true);
    expect(intact({ ...sent, file: sent.file.replace('100', '101') })).toBe(false);
  });

  it('never changes after it is made, whatever the records do later (fast-check prints its seed)', () => {
    fc.assert(
      fc.property(taxRecordsArb, fc.array(entryArb, { maxLength: 6 }), fc.integer({ min: 1, max: 4 }), (records, later, number) => {
        const sent = send(records, number, 's1');
        const copy = structuredClone(sent);
        const after: TaxRecords = { ...records, entries: [...records.entries, ...later] };
        // The next file is made from the records as they are; the snapshot is untouched.
        const { file } = quarterFile(after, number);
        const changes = changesSinceSent(sent.file, file);
        expect(sent).toEqual(copy);
        expect(intact(sent)).toBe(true);
        // The difference is exactly the later days inside the period.
        const added = later.filter((e) => e.date >= sent.periodStart && e.date <= sent.periodEnd).reduce((sum, e) => sum + e.total, 0);
        const turnover = changes.find((c) => c.field === 'periodIncome.turnover');
        expect(turnover ? turnover.now - turnover.sent : 0).toBe(added);
      }),
      { numRuns: 100 },
    );
  });
});

describe('the supersession rule', () => {
  const q1Day = { id: 'e1', date: '2025-05-01', total: 100_00, courierId: EVRI, stops: 10 };
  const sentRecords: TaxRecords = { ...none, entries: [q1Day] };
  const sentQ1 = send(sentRecords, 1, 's1');

  it.each([
    ['an edit of a Q1 day', { ...none, entries: [{ ...q1Day, total: 120_00 }] }, 120_00],
    ['a late Q1 day', { ...none, entries: [q1Day, { ...q1Day, id: 'e2', date: '2025-06-30', total: 5_00 }] }, 105_00],
    ['a deleted Q1 day', none, 0],
  ])('carries %s into the next update and names the difference on Q1', (_, later, turnover) => {
    expect(changesSinceSent(sentQ1.file, quarterFile(later, 1).file)).toEqual([{ field: 'periodIncome.turnover', sent: 100_00, now: turnover }]);
    // Q2's cumulative file, made after the change, includes it.
    expect(JSON.parse(quarterFile(later, 2).file).periodIncome.turnover * 100).toBe(turnover);
  });

  it.each([
    ['one snapshot stands', [sentQ1], 's1'],
    ['a later one that supersedes it stands', [sentQ1, { ...sentQ1, id: 's2', supersedes: 's1', createdAt: '2025-09-01T00:00:00Z' }], 's2'],
    ['supersession wins over time', [{ ...sentQ1, id: 's2', supersedes: 's1', createdAt: '2025-07-01T00:00:00Z' }, sentQ1], 's2'],
    ['two marked at once: the later stands', [sentQ1, { ...sentQ1, id: 's3', createdAt: '2025-09-01T00:00:00Z' }], 's3'],
    ['another quarter does not count', [{ ...sentQ1, id: 'q2', quarter: 2 }], null],
    ['another year does not count', [{ ...sentQ1, id: 'y', taxYear: '2024-25' }], null],
  ] as const)('%s', (_, all, standing) => {
    expect(standingSent(all, YEAR, 1)?.id ?? null).toBe(standing);
  });
});
