// Issue 25: every saved pound counted once in every total. Random days for two couriers over
// two tax years, with deliberate extra shifts and the same day logged twice, the doubles then
// merged, kept as shifts or left alone through the real commands; then every total the app
// shows or exports is compared with the same days added up here, independently, by the bucket
// each day belongs to: weeks, months, each courier's pay periods, statement checks, tax years,
// MTD quarters, the dashboard's week, the history's range, and the CSV, JSON and tax CSV files.
// A day counted twice, or missed, in any of them fails. fast-check prints the seed of a failure.
import { createTestSyncHandle, makeEntry, TEST_USER_ID } from '@/testing/sync-handle';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dashboardStats, weekPay } from '@/core/pay-summaries/dashboard-stats';
import { keepAsShifts, mergeDoubles } from '@/features/entries/commands';
import { duplicateDays, sameDayKey, survivorOf } from '@/features/entries/same-day';
import { entriesToCsv } from '@/features/history/csv-export';
import { buildJsonExport } from '@/features/history/json-export';
import { monthlySummaries, weeklySummaries } from '@/core/pay-summaries/summaries';
import { checkTotal } from '@/core/statements/total-check';
import { courierPeriods } from '@/core/statements/statement-periods';
import { recordRows } from '@/features/tax-year/tax-csv';
import { parseCsv } from '@/lib/csv-parse';
import { parsePounds } from '@/core/money/money';
import { periodHolding, type PeriodRule } from '@/core/pay-periods/pay-period';
import { payFigures } from '@/core/pay-summaries/pay-summary';
import { runningTotals, taxSummary, turnoverByYear, type TaxRecords } from '@/core/tax/tax-summary';
import { taxYearBounds, taxYearOf, type TaxYearLabel } from '@/core/tax/tax-year';
import { mtdQuarters } from '@/core/mtd/quarters';
import { addDays, weekStart } from '@/lib/week';
import type { LocalEntry } from '@/sync/types';

const DPD = TEST_USER_ID;
const EVRI = 'courier-evri';
const RULES: Record<string, PeriodRule & { id: string; name: string }> = {
  [DPD]: { id: DPD, name: 'DPD', periodKind: 'weekly', periodAnchor: '2000-01-02', arrearsWeeks: 0 },
  [EVRI]: { id: EVRI, name: 'Evri', periodKind: 'fourFourFive', periodAnchor: '2025-01-05', arrearsWeeks: 1 },
};
const TODAY = '2026-05-31';
const YEARS: TaxYearLabel[] = ['2024-25', '2025-26', '2026-27'];
// Days around the edges that matter: tax years (5/6 April), MTD quarters (5/6 July, October,
// January), weeks (Saturday/Sunday), months, and 4-4-5 periods.
const DATES = [
  '2025-03-29', '2025-03-30', '2025-04-05', '2025-04-06', '2025-05-31', '2025-06-01', '2025-07-05', '2025-07-06', '2025-09-30',
  '2025-10-05', '2025-10-06', '2025-12-31', '2026-01-05', '2026-01-06', '2026-03-29', '2026-04-05', '2026-04-06', '2026-05-30',
];

interface Logged {
  courierId: string;
  date: string;
  stops: number;
  parcels: number | null;
  total: number;
  /** The driver said "separate shift" when saving it. */
  shift: boolean;
}

const logged = fc.record<Logged>({
  courierId: fc.constantFrom(DPD, EVRI),
  date: fc.constantFrom(...DATES),
  stops: fc.integer({ min: 0, max: 200 }),
  parcels: fc.option(fc.integer({ min: 0, max: 300 }), { nil: null }),
  total: fc.integer({ min: 0, max: 60_000 }),
  shift: fc.boolean(),
});

type Resolution = { kind: 'merge'; pick: number } | { kind: 'keep' } | { kind: 'leave' };
const resolution = fc.oneof(
  fc.record({ kind: fc.constant('merge' as const), pick: fc.nat(5) }),
  fc.constant({ kind: 'keep' as const }),
  fc.constant({ kind: 'leave' as const }),
);

/** Σ of the days' totals by the bucket each day falls in. */
function byBucket(days: readonly LocalEntry[], bucket: (day: LocalEntry) => string | null): Map<string, number> {
  const sums = new Map<string, number>();
  for (const day of days) {
    const key = bucket(day);
    if (key !== null) sums.set(key, (sums.get(key) ?? 0) + day.total);
  }
  return sums;
}

const sum = (days: readonly { total: number }[]) => days.reduce((total, day) => total + day.total, 0);
const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const distinctDates = (days: readonly LocalEntry[]) => new Set(days.map((day) => day.date)).size;

function taxRecords(days: readonly LocalEntry[]): TaxRecords {
  return {
    entries: days,
    couriers: Object.values(RULES).map(({ id, name }) => ({ id, name })),
    deductions: [],
    expenses: [],
    vehicles: [],
    mileage: [],
  };
}

/** Logs the days on a fresh device, resolves each day logged twice as told, and reads back the live days. */
async function savedDays(days: readonly Logged[], resolutions: readonly Resolution[]) {
  const handle = createTestSyncHandle();
  await handle.db.entries.bulkPut(days.map(({ shift, ...day }) => makeEntry({ ...day, rateCardId: null, separateShift: shift })));
  const before = await handle.db.entries.toArray();
  const merged: { key: string; chosenTotal: number; shifts: number }[] = [];
  for (const [index, doubled] of duplicateDays(before).entries()) {
    const choice = resolutions[index % Math.max(1, resolutions.length)] ?? { kind: 'leave' };
    const ids = doubled.entries.map((entry) => entry.id);
    if (choice.kind === 'keep') await keepAsShifts(handle, ids);
    if (choice.kind === 'merge') {
      const chosen = doubled.entries[choice.pick % doubled.entries.length]!;
      await mergeDoubles(handle, ids, chosen.id);
      const shifts = sum(before.filter((entry) => sameDayKey(entry) === doubled.key && entry.separateShift));
      merged.push({ key: doubled.key, chosenTotal: chosen.total, shifts });
      // The record that stays is the same on every device: the smallest id.
      expect((await handle.db.entries.get(survivorOf(doubled.entries).id))?.deleted).toBe(0);
    }
  }
  const live = (await handle.db.entries.toArray()).filter((entry) => entry.deleted === 0);
  handle.db.close();
  return { live, merged };
}

describe('every saved pound, counted once in every total (property)', () => {
  it('weeks, months, pay periods, statement checks, tax years, MTD quarters, the dashboard, the range and the exports', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(logged, { minLength: 1, maxLength: 24 }), fc.array(resolution, { maxLength: 6 }), fc.constantFrom(...DATES), async (days, resolutions, today) => {
        const { live, merged } = await savedDays(days, resolutions);
        const all = sum(live);

        // A merged day counts the figures kept once, beside its deliberate shifts: never both copies.
        for (const { key, chosenTotal, shifts } of merged) expect(sum(live.filter((entry) => sameDayKey(entry) === key))).toBe(chosenTotal + shifts);

        // Weeks and months of the history's summaries.
        const weeks = weeklySummaries(live);
        expect(new Map(weeks.map((week) => [week.key, week.gross]))).toEqual(byBucket(live, (day) => weekStart(day.date)));
        expect(weeks.map((week) => week.daysWorked)).toEqual(weeks.map((week) => distinctDates(live.filter((day) => weekStart(day.date) === week.key))));
        const months = monthlySummaries(live);
        expect(new Map(months.map((month) => [month.key, month.gross]))).toEqual(byBucket(live, (day) => day.date.slice(0, 7)));

        // The history's pay for a range (all of it), days worked counted once each.
        const range = payFigures(live, [], DATES[0]!, DATES.at(-1)!);
        expect([range.gross, range.daysWorked]).toEqual([all, distinctDates(live)]);

        // Each courier's pay periods, and a statement check of each period.
        for (const rule of Object.values(RULES)) {
          const own = live.filter((day) => day.courierId === rule.id);
          const { rows } = courierPeriods(rule, live, [], [], TODAY);
          const model = byBucket(own, (day) => periodHolding(rule, day.date).start);
          expect(new Map(rows.filter((row) => row.log.gross !== 0 || model.has(row.period.start)).map((row) => [row.period.start, row.log.gross]))).toEqual(model);
          expect(sum(rows.map((row) => ({ total: row.log.gross })))).toBe(sum(own));
          for (const row of rows) {
            const check = checkTotal({ periodStart: row.period.start, periodEnd: row.period.end, paid: 0, stops: null }, own);
            expect(check.expected).toBe(row.log.gross);
          }
        }

        // Tax years and their cumulative MTD quarters; the tax CSV's income rows.
        const records = taxRecords(live);
        const byYear = byBucket(live, (day) => taxYearOf(day.date));
        const turnoverOf = turnoverByYear(live);
        for (const year of YEARS) {
          const { from, to } = taxYearBounds(year);
          const totals = runningTotals(records, year, to, TODAY);
          expect(totals.turnover).toBe(byYear.get(year) ?? 0);
          expect(turnoverOf(year)).toBe(byYear.get(year) ?? 0);
          for (const courier of totals.couriers) expect(courier.days).toBe(distinctDates(live.filter((day) => day.courierId === courier.courierId && day.date >= from && day.date <= to)));
          for (const election of ['standard', 'calendar'] as const) {
            for (const quarter of mtdQuarters(year, election)) {
              const upTo = live.filter((day) => day.date >= quarter.periodStart && day.date <= quarter.to);
              expect(runningTotals(records, year, quarter.to, TODAY, quarter.periodStart).turnover).toBe(sum(upTo));
            }
          }
          const summary = taxSummary(records, year, TODAY, 'uk');
          const income = recordRows(summary, records).filter((row) => row.type === 'Income');
          expect(sorted(income.map((row) => row.amount))).toEqual(sorted(live.filter((day) => taxYearOf(day.date) === year).map((day) => day.total)));
        }
        expect(YEARS.reduce((total, year) => total + (byYear.get(year) ?? 0), 0)).toBe(all);

        // The dashboard's week: the Earnings card and the week's pay, days worked once each.
        const week = live.filter((day) => day.date >= weekStart(today) && day.date <= addDays(weekStart(today), 6));
        const stats = dashboardStats(live, today);
        expect([stats.weekEarnings, stats.weekDays]).toEqual([sum(week), distinctDates(week)]);
        expect(weekPay(live, [], today, [DPD, EVRI]).gross).toBe(sum(week));

        // The exports: one row per saved day, its total as saved.
        const csv = parseCsv(entriesToCsv(live, Object.values(RULES)).slice(1));
        const totalColumn = csv[0]!.indexOf('Total (£)');
        expect(sorted(csv.slice(1).map((row) => parsePounds(row[totalColumn]!) ?? NaN))).toEqual(sorted(live.map((day) => day.total)));
        const json = buildJsonExport({
          accountId: TEST_USER_ID,
          profile: { displayName: '', email: null, bio: '', tiers: [] },
          settings: { theme: 'dark', taxRegion: 'scotland' },
          entries: live,
          statementChecks: [],
          pay: { couriers: [], cards: [], deductions: [] },
          expenses: [],
          vehicles: [],
          mileage: [],
          statementLines: [],
          statementFormats: [],
          sentUpdates: [],
          fuelFills: [],
          statementQueries: [],
          evidence: [],
          from: DATES[0]!,
          to: DATES.at(-1)!,
          exportedAt: '2026-05-31T12:00:00Z',
        });
        expect(sorted(json.entries.map((day) => day.total))).toEqual(sorted(live.map((day) => day.total)));
      }),
      { numRuns: 80 },
    );
  });
});
