import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectedPayDate, periodHolding } from '@/core/pay-periods/pay-period';
import { addDays } from '@/lib/week';
import type { StatementStatus as CheckStatus } from '@/sync/types';
import { courierPeriods, loggedDays } from './statement-periods';
import { checkState, yearStatementChecks, type OpenPeriodCheck, type YearChecksInput, type YearStatementChecks } from './year-checks';

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

/** The year's checks as the statement checks screen lists them: every period of each courier (courierPeriods), kept when it holds a day of the year. */
function throughEveryPeriod({ from, to, today, couriers, entries, checks, deductions }: YearChecksInput): YearStatementChecks {
  let done = 0;
  const open: OpenPeriodCheck[] = [];
  for (const courier of couriers) {
    const own = entries.filter((entry) => entry.courierId === courier.id);
    const days = loggedDays(own);
    for (const row of courierPeriods(courier, own, checks, deductions, today).rows.reverse()) {
      const { period } = row;
      if (days.between(period.start > from ? period.start : from, period.end < to ? period.end : to).length === 0) continue;
      const base = { courierId: courier.id, courierName: courier.name, period };
      const latest = row.checks[0];
      if (!latest) {
        open.push({ ...base, state: expectedPayDate(courier, period) > today ? 'notPaidYet' : 'missing', finding: null });
        continue;
      }
      const state = checkState(latest, courier, entries, deductions);
      if (state) open.push({ ...base, ...state });
      else done += 1;
    }
  }
  return { done, open };
}

describe('the year’s periods alone', () => {
  const date = (from: string, days: number) => fc.integer({ min: 0, max: days }).map((n) => addDays(from, n));
  const courierArb = fc.record({
    id: fc.constantFrom('dpd', 'evri'),
    name: fc.constant('Courier'),
    periodKind: fc.constantFrom('weekly', 'fourFourFive', 'monthly'),
    periodAnchor: date('2023-01-01', 1_000),
    arrearsWeeks: fc.integer({ min: 0, max: 3 }),
  });
  const input = fc
    .record({
      couriers: fc.uniqueArray(courierArb, { minLength: 1, maxLength: 2, selector: (courier) => courier.id }),
      entries: fc.array(fc.record({ date: date('2023-06-01', 1_100), courierId: fc.constantFrom('dpd', 'evri', 'gone'), stops: fc.integer({ min: 0, max: 150 }), total: fc.integer({ min: 0, max: 300_00 }), parcels: fc.constant(null), collections: fc.constant(null) }), { maxLength: 60 }),
      checks: fc.array(
        fc.record({
          day: date('2023-06-01', 1_100),
          // Most name a period of the courier's; some a week of their own (made before the courier's periods changed).
          own: fc.boolean(),
          courierId: fc.constantFrom('dpd', 'evri'),
          paid: fc.integer({ min: 0, max: 900_00 }),
          status: fc.constantFrom('unchecked', 'matches', 'disputed', 'resolved'),
          // Few times: checks made at the same moment too.
          createdAt: fc.constantFrom('2025-01-01T00:00:00Z', '2025-02-01T00:00:00Z', '2025-03-01T00:00:00Z'),
        }),
        { maxLength: 30 },
      ),
      deductions: fc.array(fc.record({ courierId: fc.constantFrom('dpd', 'evri'), label: fc.constantFrom('Van hire', 'Fee'), amount: fc.integer({ min: 1, max: 50_00 }), repeat: fc.constantFrom('once', 'weekly', 'monthly'), from: date('2023-06-01', 1_100), to: fc.constant(null) }), { maxLength: 3 }),
      today: date('2024-01-01', 900),
      year: fc.constantFrom(2023, 2024, 2025),
    })
    .map(({ couriers, checks, year, ...rest }): YearChecksInput => ({
      ...rest,
      couriers,
      from: `${year}-04-06`,
      to: `${year + 1}-04-05`,
      checks: checks.map(({ day, own, courierId, ...check }) => {
        const courier = couriers.find((c) => c.id === courierId);
        const period = courier && !own ? periodHolding(courier, day) : { start: day, end: addDays(day, 6) };
        return { ...check, courierId, periodStart: period.start, periodEnd: period.end, stops: null, parcels: null, collections: null, deductions: null };
      }),
    }));

  it('finds what going through every period finds', () => {
    fc.assert(
      fc.property(input, (year) => {
        expect(yearStatementChecks(year)).toEqual(throughEveryPeriod(year));
      }),
      { numRuns: 300 },
    );
  });
});
