import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { taxSummary, type TaxRecords } from '@/core/tax/tax-summary';
import { COURIERS, FLAT_VAN, OWN_VAN, taxRecordsArb } from '@/testing/tax-arbitraries';
import schema from './testdata/create-amend-cumulative-period-summary.request.schema.json';
import { schemaProblems } from './testdata/json-schema-check';
import { claimedExpenses, consolidatedOffered, updateFigures, updateJson, type ExpensesShape } from './update';

const [EVRI, DPD] = COURIERS as unknown as [{ id: string; name: string }, { id: string; name: string }];

/** A year with two couriers, phone costs, a flat-rate van's fuel and miles, and an own van on actual costs. */
const YEAR: TaxRecords = {
  couriers: COURIERS,
  vehicles: [FLAT_VAN, OWN_VAN],
  entries: [
    { id: 'e1', date: '2025-04-10', total: 150_00, courierId: EVRI.id, stops: 100 },
    { id: 'e2', date: '2025-05-02', total: 99_99, courierId: DPD.id, stops: 60 },
    { id: 'e3', date: '2025-08-01', total: 120_01, courierId: EVRI.id, stops: 90 },
  ],
  expenses: [
    { id: 'x1', date: '2025-04-12', amount: 45_99, category: 'fuel', note: 'Shell', courierId: null, vehicleId: FLAT_VAN.id, repeat: 'once', repeatUntil: null, receipts: [] },
    { id: 'x2', date: '2025-04-20', amount: 15_00, category: 'phone', note: '', courierId: null, vehicleId: null, repeat: 'once', repeatUntil: null, receipts: [] },
    { id: 'x3', date: '2025-05-01', amount: 100_00, category: 'vehicleRepairs', note: 'Brakes', courierId: null, vehicleId: OWN_VAN.id, repeat: 'once', repeatUntil: null, receipts: [] },
  ],
  deductions: [],
  mileage: [
    { id: 'm1', date: '2025-04-10', vehicleId: FLAT_VAN.id, courierId: null, odometerStart: null, odometerEnd: null, businessMiles: 100, commuteMiles: 0, note: '' },
    { id: 'm2', date: '2025-05-02', vehicleId: OWN_VAN.id, courierId: null, odometerStart: null, odometerEnd: null, businessMiles: 75, commuteMiles: 25, note: '' },
  ],
};

function quarterUpdate(records: TaxRecords, number: number, shape: ExpensesShape, today = '2026-06-01') {
  const summary = taxSummary(records, '2025-26', today, 'uk');
  const quarter = summary.quarters[number - 1]!;
  return updateFigures({ year: summary.year, periodStart: quarter.periodStart, periodEnd: quarter.to, totals: quarter.totals }, shape, summary.totals.turnover);
}

const problems = (text: string) => schemaProblems(schema as Record<string, unknown>, JSON.parse(text));

describe("the update in HMRC's createAmendCumulativePeriodSummary shape", () => {
  it('itemises the figures: expenses as spent, the parts not claimed as disallowable, mileage in car, van and travel', () => {
    const figures = quarterUpdate(YEAR, 1, 'itemised');
    // Flat van fuel £45.99 (covered by the rate: all disallowable), own van repairs £100 at 75% business use
    // (£25 disallowable), the van's 100 miles at 45p = £45.
    expect(figures).toEqual({
      periodDates: { periodStartDate: '2025-04-06', periodEndDate: '2025-07-05' },
      periodIncome: { turnover: 249_99 },
      periodExpenses: {
        carVanTravelExpenses: 45_99 + 100_00 + 45_00,
        premisesRunningCosts: 0,
        maintenanceCosts: 0,
        adminCosts: 15_00,
        financeCharges: 0,
        professionalFees: 0,
        otherExpenses: 0,
      },
      periodDisallowableExpenses: { carVanTravelExpensesDisallowable: 45_99 + 25_00 },
    });
    const summary = taxSummary(YEAR, '2025-26', '2026-06-01', 'uk');
    expect(claimedExpenses(figures)).toBe(summary.quarters[0]!.totals.allowable);
    expect(JSON.parse(updateJson(figures))).toEqual({
      periodDates: { periodStartDate: '2025-04-06', periodEndDate: '2025-07-05' },
      periodIncome: { turnover: 249.99 },
      periodExpenses: { carVanTravelExpenses: 190.99, premisesRunningCosts: 0, maintenanceCosts: 0, adminCosts: 15, financeCharges: 0, professionalFees: 0, otherExpenses: 0 },
      periodDisallowableExpenses: { carVanTravelExpensesDisallowable: 70.99 },
    });
  });

  it('consolidates to one allowable total, with nothing itemised and nothing disallowable', () => {
    const figures = quarterUpdate(YEAR, 2, 'consolidated');
    expect(figures).toEqual({
      periodDates: { periodStartDate: '2025-04-06', periodEndDate: '2025-10-05' },
      periodIncome: { turnover: 370_00 },
      periodExpenses: { consolidatedExpenses: 15_00 + 75_00 + 45_00 },
    });
  });

  it('is valid against the schema written from HMRC’s definition, itemised and consolidated', () => {
    for (const shape of ['itemised', 'consolidated'] as const) {
      for (const number of [1, 2, 3, 4]) expect(problems(updateJson(quarterUpdate(YEAR, number, shape)))).toEqual([]);
    }
  });

  it.each([
    ['both kinds of expenses', { periodExpenses: { consolidatedExpenses: 10, adminCosts: 5 } }, '$.periodExpenses(with consolidatedExpenses): more than 1 properties'],
    ['a property HMRC does not define', { periodIncome: { turnover: 1, tips: 2 } }, '$.periodIncome: tips is not allowed'],
    ['a top-level property HMRC does not define', { periodNotes: {} }, '$: periodNotes is not allowed'],
    ['three decimal places', { periodIncome: { turnover: 1.005 } }, '$.periodIncome.turnover: not a multiple of 0.01'],
    ['negative turnover', { periodIncome: { turnover: -1 } }, '$.periodIncome.turnover: below 0'],
    ['an expense over the maximum', { periodExpenses: { adminCosts: 100_000_000_000 } }, '$.periodExpenses.adminCosts: above 99999999999.99'],
    ['an expense below the minimum', { periodExpenses: { otherExpenses: -100_000_000_000 } }, '$.periodExpenses.otherExpenses: below -99999999999.99'],
    ['a period without its end', { periodDates: { periodStartDate: '2025-04-06' } }, '$.periodDates: periodEndDate is required'],
    ['a date that does not exist', { periodDates: { periodStartDate: '2025-02-29', periodEndDate: '2025-07-05' } }, '$.periodDates.periodStartDate: not a YYYY-MM-DD date'],
    ['an amount as text', { periodExpenses: { adminCosts: '5.00' } }, '$.periodExpenses.adminCosts: not a number'],
  ])('refuses %s', (_, body, problem) => {
    expect(schemaProblems(schema as Record<string, unknown>, body)).toContain(problem);
  });

  it('has every field HMRC publishes, each bounded, and no other', () => {
    // The facts: periodDates, periodIncome, periodExpenses (consolidated or itemised) and
    // periodDisallowableExpenses, with the …Disallowable twin of every itemised field.
    const itemised = ['costOfGoods', 'paymentsToSubcontractors', 'wagesAndStaffCosts', 'carVanTravelExpenses', 'premisesRunningCosts', 'maintenanceCosts', 'adminCosts', 'businessEntertainmentCosts', 'advertisingCosts', 'interestOnBankOtherLoans', 'financeCharges', 'irrecoverableDebts', 'professionalFees', 'depreciation', 'otherExpenses'];
    const props = schema.properties;
    expect(Object.keys(props)).toEqual(['periodDates', 'periodIncome', 'periodExpenses', 'periodDisallowableExpenses']);
    expect(Object.keys(props.periodIncome.properties)).toEqual(['turnover', 'other', 'taxTakenOffTradingIncome']);
    expect(Object.keys(props.periodExpenses.properties)).toEqual(['consolidatedExpenses', ...itemised]);
    expect(Object.keys(props.periodDisallowableExpenses.properties)).toEqual(itemised.map((field) => `${field}Disallowable`));
    for (const group of [schema, props.periodDates, props.periodIncome, props.periodExpenses, props.periodDisallowableExpenses]) expect(group.additionalProperties).toBe(false);
    for (const group of [props.periodIncome, props.periodExpenses, props.periodDisallowableExpenses]) {
      for (const field of Object.values(group.properties) as { minimum: number; maximum: number; multipleOf: number }[]) {
        expect([field.maximum, field.multipleOf]).toEqual([99_999_999_999.99, 0.01]);
        expect(field.minimum).toBe(group === props.periodIncome ? 0 : -99_999_999_999.99);
      }
    }
  });

  it('writes every field the app fills within the schema, for any records (fast-check prints its seed)', () => {
    fc.assert(
      fc.property(taxRecordsArb, fc.constantFrom<ExpensesShape>('itemised', 'consolidated'), fc.integer({ min: 1, max: 4 }), (records, shape, number) => {
        const summary = taxSummary(records, '2025-26', '2026-06-01', 'uk');
        fc.pre(shape === 'itemised' || consolidatedOffered('2025-26', summary.totals.turnover));
        expect(problems(updateJson(quarterUpdate(records, number, shape)))).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});

describe('the consolidated threshold (GOV.UK: below £90,000 turnover)', () => {
  it.each([
    [0, true],
    [89_999_99, true],
    [90_000_00, false],
    [120_000_00, false],
  ])('a year with £%i pence of turnover: consolidated offered %s', (turnover, offered) => {
    expect(consolidatedOffered('2026-27', turnover)).toBe(offered);
  });

  it('refuses to build a consolidated update at or over the threshold', () => {
    const period = { year: '2026-27' as const, periodStart: '2026-04-06', periodEnd: '2026-07-05', totals: taxSummary(YEAR, '2025-26', '2026-06-01', 'uk').totals };
    expect(() => updateFigures(period, 'consolidated', 90_000_00)).toThrow(/threshold/);
    expect(updateFigures(period, 'itemised', 90_000_00).periodExpenses.consolidatedExpenses).toBeUndefined();
  });
});

describe('cumulative figures', () => {
  it('never decrease from one quarter to the next without a negative record (fast-check prints its seed)', () => {
    // Actual-cost vehicles are left out: a later month's private miles may lower their business
    // share, which is a real (and allowed) fall, not a negative record.
    const noActualCosts = taxRecordsArb.map((records) => ({
      ...records,
      expenses: records.expenses.map((e) => (e.vehicleId === OWN_VAN.id ? { ...e, vehicleId: null } : e)),
      deductions: records.deductions.map((d) => (d.vehicleId === OWN_VAN.id ? { ...d, vehicleId: null } : d)),
      mileage: records.mileage.filter((m) => m.vehicleId !== OWN_VAN.id),
    }));
    fc.assert(
      fc.property(noActualCosts, fc.constantFrom('standard', 'calendar') as fc.Arbitrary<'standard' | 'calendar'>, (records, election) => {
        const summary = taxSummary(records, '2025-26', '2026-06-01', 'uk', election);
        const figures = summary.quarters.map((q) => updateFigures({ year: summary.year, periodStart: q.periodStart, periodEnd: q.to, totals: q.totals }, 'itemised', summary.totals.turnover));
        for (let i = 1; i < figures.length; i += 1) {
          const [before, after] = [figures[i - 1]!, figures[i]!];
          expect(after.periodIncome.turnover).toBeGreaterThanOrEqual(before.periodIncome.turnover);
          expect(claimedExpenses(after)).toBeGreaterThanOrEqual(claimedExpenses(before));
          for (const [field, value] of Object.entries(after.periodExpenses)) expect(value).toBeGreaterThanOrEqual((before.periodExpenses as Record<string, number>)[field] ?? 0);
        }
      }),
      { numRuns: 100 },
    );
  });
});
