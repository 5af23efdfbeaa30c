import { describe, expect, it } from 'vitest';
import type { TaxRecords } from '@/core/tax/tax-summary';
import { COURIERS } from '@/testing/tax-arbitraries';
import { snapshotOf, type SentRecord } from './sent';
import { fileNow, uncarriedChanges } from './uncarried';

const YEAR = '2025-26' as const;
const TODAY = '2026-06-01';
const DPD = COURIERS[0]!.id;
const none: TaxRecords = { entries: [], couriers: COURIERS, vehicles: [], expenses: [], deductions: [], mileage: [] };
const QUARTER_ENDS = ['2025-07-05', '2025-10-05', '2026-01-05', '2026-04-05'];

const day = (id: string, date: string, total: number, updatedAt = '2025-01-01T00:00:00Z') => ({ id, date, total, courierId: DPD, stops: 10, createdAt: updatedAt, updatedAt });

/** Quarter `n` marked as sent at `createdAt`, with the file the records gave then. */
function send(records: TaxRecords, n: number, createdAt: string, id = `sent-q${n}`): SentRecord {
  const period = { taxYear: YEAR, periodStart: '2025-04-06', periodEnd: QUARTER_ENDS[n - 1]!, shape: 'itemised' as const };
  const file = fileNow(records, period, TODAY);
  return { id, createdAt, ...snapshotOf({ year: YEAR, quarter: n, quarters: 'standard', periodStart: period.periodStart, periodEnd: period.periodEnd, shape: 'itemised', file, sentOn: createdAt.slice(0, 10), product: 'Bridger', reference: '', supersedes: null }) };
}

const q1Day = day('q1', '2025-05-10', 120_00);
const q2Day = day('q2', '2025-08-20', 140_00);
const before: TaxRecords = { ...none, entries: [q1Day, q2Day] };
const Q1_SENT = '2025-08-01T10:00:00Z';
const Q2_SENT = '2025-11-01T10:00:00Z';
const sentQ1 = send(before, 1, Q1_SENT);
const sentQ2 = send(before, 2, Q2_SENT);
const turnover = (sent: number, now: number) => [{ field: 'periodIncome.turnover', sent, now }];

describe('changes since sent that no update carries', () => {
  it.each([
    ['nothing changed', before, [sentQ1, sentQ2], []],
    ['no update sent', { ...before, entries: [{ ...q1Day, total: 145_00, updatedAt: '2025-12-01T00:00:00Z' }] }, [], []],
    [
      'a Q1 day edited after Q1 and Q2 were sent: Q1, carried by nothing yet',
      { ...before, entries: [{ ...q1Day, total: 145_00, updatedAt: '2025-12-01T00:00:00Z' }, q2Day] },
      [sentQ1, sentQ2],
      [{ year: YEAR, quarters: [1], lastSent: 2, changes: turnover(260_00, 285_00) }],
    ],
    [
      // Q2's cumulative file was made after the edit: it carries it.
      'a Q1 day edited after Q1 was sent and before Q2 was: carried by Q2',
      { ...before, entries: [{ ...q1Day, total: 145_00, updatedAt: '2025-09-01T00:00:00Z' }, q2Day] },
      [sentQ1, send({ ...before, entries: [{ ...q1Day, total: 145_00 }, q2Day] }, 2, Q2_SENT)],
      [],
    ],
    [
      'a Q1 day edited after Q1 was sent, Q2 not sent yet',
      { ...before, entries: [{ ...q1Day, total: 145_00, updatedAt: '2025-09-01T00:00:00Z' }, q2Day] },
      [sentQ1],
      [{ year: YEAR, quarters: [1], lastSent: 1, changes: turnover(120_00, 145_00) }],
    ],
    [
      'a late Q2 day after Q2 was sent: Q2',
      { ...before, entries: [q1Day, q2Day, day('late', '2025-09-30', 10_00, '2025-12-01T00:00:00Z')] },
      [sentQ1, sentQ2],
      [{ year: YEAR, quarters: [2], lastSent: 2, changes: turnover(260_00, 270_00) }],
    ],
    [
      'days changed in Q1 and Q2 after both were sent: both named, one difference',
      { ...before, entries: [{ ...q1Day, total: 125_00, updatedAt: '2025-12-01T00:00:00Z' }, { ...q2Day, total: 150_00, updatedAt: '2025-12-02T00:00:00Z' }] },
      [sentQ1, sentQ2],
      [{ year: YEAR, quarters: [1, 2], lastSent: 2, changes: turnover(260_00, 275_00) }],
    ],
    [
      // A deletion leaves no record: Q1's own file shows the same difference, so Q1 is named.
      'a Q1 day deleted after both were sent',
      { ...before, entries: [q2Day] },
      [sentQ1, sentQ2],
      [{ year: YEAR, quarters: [1], lastSent: 2, changes: turnover(260_00, 140_00) }],
    ],
    [
      'a Q2 day deleted after both were sent',
      { ...before, entries: [q1Day] },
      [sentQ1, sentQ2],
      [{ year: YEAR, quarters: [2], lastSent: 2, changes: turnover(260_00, 120_00) }],
    ],
    [
      'a day after the last update sent is not a change since sent',
      { ...before, entries: [q1Day, q2Day, day('q3', '2025-11-20', 99_00, '2025-12-01T00:00:00Z')] },
      [sentQ1, sentQ2],
      [],
    ],
    ['a deleted snapshot does not count', { ...before, entries: [q2Day] }, [{ ...sentQ1, deleted: 1 as const }], []],
  ] as const)('%s', (_, records, sent, expected) => {
    expect(uncarriedChanges(records, sent, TODAY)).toEqual(expected);
  });

  it('looks at each year with an update sent, oldest first', () => {
    const earlier = { ...sentQ1, id: 'old', taxYear: '2024-25', periodStart: '2024-04-06', periodEnd: '2024-07-05', file: sentQ1.file.replace(/2025-/g, '2024-') };
    const found = uncarriedChanges({ ...before, entries: [{ ...q1Day, total: 145_00, updatedAt: '2025-12-01T00:00:00Z' }, q2Day] }, [sentQ2, earlier], TODAY);
    expect(found.map((change) => [change.year, change.quarters])).toEqual([
      // 2024-25's Q1 file said £120.00 of days; none are dated in that period now.
      ['2024-25', [1]],
      ['2025-26', [1]],
    ]);
  });
});
