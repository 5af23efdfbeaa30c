import { describe, expect, it } from 'vitest';
import type { StatementStatus as CheckStatus } from '@/sync/types';
import { yearStatementChecks, type YearChecksInput } from './year-checks';

// Weekly, Sunday to Saturday, paid two weeks after the period ends.
const DPD = { id: 'dpd', name: 'DPD', periodKind: 'weekly', periodAnchor: '2025-01-05', arrearsWeeks: 2 } as const;
// Monthly from the 1st, paid when the month ends.
const EVRI = { id: 'evri', name: 'Evri', periodKind: 'monthly', periodAnchor: '2025-01-01', arrearsWeeks: 0 } as const;

const day = (date: string, total: number, courierId: string = DPD.id) => ({ date, courierId, stops: 10, total, parcels: null, collections: null });
const check = (periodStart: string, periodEnd: string, paid: number, status: CheckStatus = 'unchecked', courierId: string = DPD.id, createdAt = '2025-06-01T00:00:00Z') => ({
  periodStart,
  periodEnd,
  courierId,
  paid,
  stops: null,
  parcels: null,
  collections: null,
  deductions: null,
  status,
  createdAt,
});

const base: YearChecksInput = { from: '2025-04-06', to: '2026-04-05', today: '2026-06-01', couriers: [DPD], entries: [], checks: [], deductions: [] };
// A DPD day in the week of Sunday 4 May 2025.
const may = day('2025-05-06', 120_00);
const MAY = { start: '2025-05-04', end: '2025-05-10' };

describe('the statement checks of a tax year', () => {
  it.each([
    ['no day logged: nothing to check', {}, { done: 0, open: [] }],
    ['a period with days and no check: not checked', { entries: [may] }, { done: 0, open: [{ courierId: 'dpd', courierName: 'DPD', period: MAY, state: 'missing', finding: null }] }],
    ['a check that agrees with the log: done', { entries: [may], checks: [check(MAY.start, MAY.end, 120_00)] }, { done: 1, open: [] }],
    ['a check £20 short, not followed up: unresolved', { entries: [may], checks: [check(MAY.start, MAY.end, 100_00)] }, { done: 0, open: [{ courierId: 'dpd', courierName: 'DPD', period: MAY, state: 'unresolved', finding: '£20.00 short' }] }],
    ['a check £20 short the driver accepted: done', { entries: [may], checks: [check(MAY.start, MAY.end, 100_00, 'matches')] }, { done: 1, open: [] }],
    ['a check £20 short the driver resolved: done', { entries: [may], checks: [check(MAY.start, MAY.end, 100_00, 'resolved')] }, { done: 1, open: [] }],
    ['a disputed check stays open', { entries: [may], checks: [check(MAY.start, MAY.end, 100_00, 'disputed')] }, { done: 0, open: [{ courierId: 'dpd', courierName: 'DPD', period: MAY, state: 'unresolved', finding: '£20.00 short, disputed' }] }],
    ['disputed even when the figures agree', { entries: [may], checks: [check(MAY.start, MAY.end, 120_00, 'disputed')] }, { done: 0, open: [{ courierId: 'dpd', courierName: 'DPD', period: MAY, state: 'unresolved', finding: 'disputed' }] }],
    [
      'the latest check made for a period counts',
      { entries: [may], checks: [check(MAY.start, MAY.end, 100_00, 'unchecked', DPD.id, '2025-06-01T00:00:00Z'), check(MAY.start, MAY.end, 120_00, 'unchecked', DPD.id, '2025-06-02T00:00:00Z')] },
      { done: 1, open: [] },
    ],
    [
      'a period whose pay is not due yet',
      { entries: [day('2026-04-01', 50_00)], today: '2026-04-10' },
      { done: 0, open: [{ courierId: 'dpd', courierName: 'DPD', period: { start: '2026-03-29', end: '2026-04-04' }, state: 'notPaidYet', finding: null }] },
    ],
    [
      // The week of 30 March–5 April 2025 holds 6 April's year only by its days after 5 April: none logged.
      'days of another tax year do not count, even in a period that crosses into this one',
      { entries: [day('2025-04-02', 80_00), day('2026-04-06', 80_00)] },
      { done: 0, open: [] },
    ],
    [
      'a period crossing the year start counts for the days logged in the year',
      { entries: [day('2025-04-07', 80_00)] },
      { done: 0, open: [{ courierId: 'dpd', courierName: 'DPD', period: { start: '2025-04-06', end: '2025-04-12' }, state: 'missing', finding: null }] },
    ],
    [
      'each courier by its own periods, oldest first',
      { couriers: [DPD, EVRI], entries: [day('2025-06-20', 90_00, EVRI.id), day('2025-05-20', 90_00, EVRI.id), may], checks: [check('2025-05-01', '2025-05-31', 90_00, 'unchecked', EVRI.id)] },
      {
        done: 1,
        open: [
          { courierId: 'dpd', courierName: 'DPD', period: MAY, state: 'missing', finding: null },
          { courierId: 'evri', courierName: 'Evri', period: { start: '2025-06-01', end: '2025-06-30' }, state: 'missing', finding: null },
        ],
      },
    ],
    ['a check of another courier does not count', { entries: [may], checks: [check(MAY.start, MAY.end, 120_00, 'unchecked', EVRI.id)] }, { done: 0, open: [{ courierId: 'dpd', courierName: 'DPD', period: MAY, state: 'missing', finding: null }] }],
  ] as const)('%s', (_, input, expected) => {
    expect(yearStatementChecks({ ...base, ...input })).toEqual(expected);
  });

  it('counts the courier’s deductions as the statement check does', () => {
    const vanHire = { courierId: DPD.id, label: 'Van hire', amount: 20_00, repeat: 'once', from: '2025-05-07', to: null } as const;
    // Paid £100 net: £120 of days less the £20 charge. Agrees.
    expect(yearStatementChecks({ ...base, entries: [may], deductions: [vanHire], checks: [check(MAY.start, MAY.end, 100_00)] })).toEqual({ done: 1, open: [] });
  });
});
