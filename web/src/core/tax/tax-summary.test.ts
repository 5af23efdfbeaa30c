import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deductionArb, expenseArb, FLAT_BIKE, FLAT_RATE_IDS, FLAT_VAN, taxRecordsArb } from '@/testing/tax-arbitraries';
import type { DeductionContent, EntryContent, ExpenseContent, MileageContent, VehicleContent } from '@/sync/types';
import { expenseCategory } from './expense-categories';
import { incomeTax } from './income-tax';
import { class4 } from './national-insurance';
import { taxYearRates } from './tax-year';
import { apportion } from './running-costs';
import { chooseProfit, runningTotals, taxSummary, yearsWithRecords, type TaxRecords } from './tax-summary';

const pounds = (value: number) => value * 100;
let n = 0;
const nextId = (prefix: string) => `${prefix}-${String((n += 1)).padStart(4, '0')}`;

const EVRI = { id: 'courier-evri', name: 'Evri' };
const DPD = { id: 'courier-dpd', name: 'DPD' };
const VAN = { id: 'vehicle-van', name: 'Van', type: 'carVan', method: 'flatRate', commuteMiles: 0 } as const satisfies VehicleContent & { id: string };
const LEASED = { id: 'vehicle-leased', name: 'Leased van', type: 'carVan', method: 'actualCosts', commuteMiles: 0 } as const satisfies VehicleContent & { id: string };

type Entry = TaxRecords['entries'][number];
function day(date: string, total: number, courierId = EVRI.id, fields: Partial<EntryContent & { deleted: 0 | 1 }> = {}): Entry {
  return { id: nextId('entry'), date, total, courierId, stops: 100, ...fields };
}
function expense(date: string, amount: number, fields: Partial<ExpenseContent & { deleted: 0 | 1 }> = {}): ExpenseContent & { id: string; deleted?: 0 | 1 } {
  return { id: nextId('expense'), date, amount, category: 'phone', note: '', courierId: null, vehicleId: null, repeat: 'once', repeatUntil: null, receipts: [], ...fields };
}
function miles(date: string, businessMiles: number, fields: Partial<MileageContent> = {}): MileageContent & { id: string } {
  return { id: nextId('trip'), date, vehicleId: VAN.id, courierId: null, odometerStart: null, odometerEnd: null, businessMiles, commuteMiles: 0, note: '', ...fields };
}
function deduction(from: string, amount: number, fields: Partial<DeductionContent> = {}): DeductionContent & { id: string } {
  return { id: nextId('deduction'), courierId: EVRI.id, label: 'Van hire', amount, repeat: 'once', from, to: null, purpose: null, vehicleId: null, ...fields };
}
function records(parts: Partial<TaxRecords>): TaxRecords {
  return { entries: [], couriers: [EVRI, DPD], deductions: [], expenses: [], vehicles: [VAN, LEASED], mileage: [], ...parts };
}

describe('the tax year a record lands in', () => {
  // HMRC: the tax year runs 6 April to 5 April. A day's pay, an expense and a trip on 5 April
  // belong to the year ending that day; the same on 6 April to the year starting.
  it('puts 5 April in the old year and 6 April in the new one', () => {
    const r = records({
      entries: [day('2025-04-05', pounds(100)), day('2025-04-06', pounds(150))],
      expenses: [expense('2025-04-05', pounds(10)), expense('2025-04-06', pounds(20))],
      mileage: [miles('2025-04-05', 10), miles('2025-04-06', 20)],
    });
    const old = taxSummary(r, '2024-25', '2025-06-01', 'uk');
    const current = taxSummary(r, '2025-26', '2025-06-01', 'uk');
    expect([old.totals.turnover, old.totals.costs.allowed, old.totals.mileage.claimPence]).toEqual([pounds(100), pounds(10), 10 * 45]);
    expect([current.totals.turnover, current.totals.costs.allowed, current.totals.mileage.claimPence]).toEqual([pounds(150), pounds(20), 20 * 45]);
    expect([old.from, old.to, current.from]).toEqual(['2024-04-06', '2025-04-05', '2025-04-06']);
  });
});

describe('turnover and deductions by courier', () => {
  it("adds the days' saved totals per courier, never re-pricing them", () => {
    const r = records({
      entries: [
        // 100 stops at any rate would not be £12.34: the saved total is what counts.
        day('2025-05-01', 1_234),
        day('2025-05-02', pounds(200)),
        day('2025-05-03', pounds(150), DPD.id),
        day('2025-05-04', pounds(999), EVRI.id, { deleted: 1 }),
        day('2025-05-05', pounds(80), 'courier-gone'),
      ],
    });
    const summary = taxSummary(r, '2025-26', '2026-06-01', 'uk');
    expect(summary.totals.couriers.map((c) => [c.name, c.days, c.turnover])).toEqual([
      ['Evri', 2, pounds(200) + 1_234],
      ['DPD', 1, pounds(150)],
      ['Removed courier', 1, pounds(80)],
    ]);
    expect(summary.totals.turnover).toBe(pounds(430) + 1_234);
  });

  it('counts each deduction charged inside the year and no later than today', () => {
    const r = records({
      entries: [day('2025-04-07', pounds(100))],
      // Weekly van hire from Monday 7 April; a one-off fee before the year; one in the future.
      deductions: [deduction('2025-04-07', pounds(10), { repeat: 'weekly' }), deduction('2025-03-01', pounds(5)), deduction('2025-06-01', pounds(7))],
    });
    // Up to Monday 5 May: 7, 14, 21, 28 April and 5 May.
    const summary = taxSummary(r, '2025-26', '2025-05-05', 'uk');
    expect(summary.totals.deducted).toBe(pounds(50));
    expect(summary.totals.couriers[0]).toMatchObject({ name: 'Evri', deductions: pounds(50) });
    expect(summary.totals.byMtdField.otherExpenses).toBe(pounds(50));
    expect(summary.totals.profit).toBe(pounds(50));
  });
});

describe('expenses', () => {
  it('expands repeats inside the year up to today, a repeat begun last year included', () => {
    const r = records({
      expenses: [
        // Monthly phone from 15 January 2025: 15 April, 15 May, 15 June 2025 by 20 June.
        expense('2025-01-15', pounds(20), { repeat: 'monthly' }),
        // Weekly, ended on 20 April: 9, 16 April.
        expense('2025-04-09', pounds(3), { repeat: 'weekly', repeatUntil: '2025-04-20', category: 'subscriptions' }),
        expense('2025-05-01', pounds(40), { category: 'equipment', deleted: 1 }),
      ],
    });
    const summary = taxSummary(r, '2025-26', '2025-06-20', 'uk');
    expect(summary.totals.costs.occurrences.filter((o) => o.source === 'expense').map((o) => [o.date, o.category, o.allowed])).toEqual([
      ['2025-04-09', 'subscriptions', pounds(3)],
      ['2025-04-15', 'phone', pounds(20)],
      ['2025-04-16', 'subscriptions', pounds(3)],
      ['2025-05-15', 'phone', pounds(20)],
      ['2025-06-15', 'phone', pounds(20)],
    ]);
    expect(summary.totals.costs.byCategory.map((c) => [c.label, c.box, c.allowed])).toEqual([
      ['Phone and data', 23, pounds(60)],
      ['Software and subscriptions', 23, pounds(6)],
    ]);
    expect(summary.through).toBe('2025-06-20');
    // A finished year expands to 5 April.
    expect(taxSummary(r, '2024-25', '2025-06-20', 'uk').totals.costs.allowed).toBe(pounds(60));
  });

  it('does not count a running cost of a flat-rate vehicle, shares an actual-cost one, counts one with no vehicle in full', () => {
    const r = records({
      expenses: [
        expense('2025-05-01', pounds(50), { category: 'fuel', vehicleId: VAN.id }),
        expense('2025-05-02', pounds(40), { category: 'fuel' }),
        // Parking is claimed on top of the mileage rate.
        expense('2025-05-03', pounds(6), { category: 'parkingTolls', vehicleId: VAN.id }),
        expense('2025-05-04', pounds(100), { category: 'vehicleRepairs', vehicleId: LEASED.id }),
        expense('2025-05-05', pounds(200), { category: 'vehicleRepairs', vehicleId: LEASED.id }),
        expense('2025-05-06', 1_001, { category: 'fuel', vehicleId: LEASED.id }),
      ],
      // The leased van: 800 business miles of 1,000 (odometers), an 80% business share.
      mileage: [miles('2025-05-01', 800, { vehicleId: LEASED.id, odometerStart: 1_000, odometerEnd: 2_000, commuteMiles: 50 }), miles('2025-05-01', 100)],
    });
    const summary = taxSummary(r, '2025-26', '2026-06-01', 'uk');
    const byCategory = Object.fromEntries(summary.totals.costs.byCategory.map((c) => [c.category, c]));
    expect(byCategory.fuel).toMatchObject({ paid: pounds(50) + pounds(40) + 1_001, coveredByMileage: pounds(50), allowed: pounds(40) + 801 });
    expect(byCategory.vehicleRepairs).toMatchObject({ paid: pounds(300), allowed: pounds(240) });
    expect(byCategory.parkingTolls).toMatchObject({ allowed: pounds(6) });
    expect(summary.totals.costs.coveredByMileage).toBe(pounds(50));
    expect(summary.totals.costs.actualCostVehicles).toEqual([
      { vehicleId: LEASED.id, name: 'Leased van', businessMiles: 800, totalMiles: 1_000, costs: pounds(300) + 1_001, allowed: pounds(240) + 801 },
    ]);
    // Each row carries its part, adding up to the category's share: £80 + £160.
    const repairs = summary.totals.costs.occurrences.filter((o) => o.category === 'vehicleRepairs');
    expect(repairs.map((o) => [o.treatment, o.allowed])).toEqual([
      ['businessShare', pounds(80)],
      ['businessShare', pounds(160)],
    ]);
    expect(summary.totals.mileage.claimPence).toBe(100 * 45);
    expect(summary.totals.allowable).toBe(pounds(40) + 801 + pounds(240) + pounds(6) + 100 * 45);
  });

  it('allows nothing of an actual-cost vehicle with no miles logged: the share needs the log', () => {
    const r = records({ expenses: [expense('2025-05-04', pounds(100), { category: 'vehicleInsurance', vehicleId: LEASED.id })] });
    const summary = taxSummary(r, '2025-26', '2026-06-01', 'uk');
    expect(summary.totals.costs.allowed).toBe(0);
    expect(summary.totals.costs.actualCostVehicles[0]).toMatchObject({ costs: pounds(100), allowed: 0, totalMiles: 0 });
  });
});

describe('vehicle costs, paid or deducted, claimed once', () => {
  const HIRED = { id: 'vehicle-hired', name: 'Hired van', type: 'carVan', method: 'flatRate', commuteMiles: 0 } as const;
  const vanHire = (fields: Partial<DeductionContent> = {}) =>
    deduction('2025-05-05', pounds(195), { courierId: DPD.id, repeat: 'weekly', to: '2025-05-12', purpose: 'vehicleHire', vehicleId: HIRED.id, ...fields });

  // The driver: a van hired from the courier at £195 a week on the 45p flat rate, £141.99
  // of fuel, 120 business miles. Only the mileage claim is allowable.
  it('covers a flat-rate van’s hire from the courier and its fuel by the mileage rate', () => {
    const r = records({
      vehicles: [HIRED],
      entries: [day('2025-05-05', pounds(2_648), DPD.id)],
      deductions: [vanHire()],
      expenses: [expense('2025-05-06', 14_199, { category: 'fuel', vehicleId: HIRED.id })],
      mileage: [miles('2025-05-05', 120, { vehicleId: HIRED.id })],
    });
    const { totals } = taxSummary(r, '2025-26', '2026-06-01', 'uk');
    expect(totals.deducted).toBe(pounds(390));
    expect(totals.couriers[0]).toMatchObject({ name: 'DPD', deductions: pounds(390) });
    expect(totals.costs.allowed).toBe(0);
    expect(totals.costs.coveredByMileage).toBe(pounds(390) + 14_199);
    expect(totals.allowable).toBe(120 * 45);
    expect(totals.profit).toBe(pounds(2_648) - 120 * 45);
    const hire = totals.costs.byCategory.find((c) => c.category === 'vehicleHire');
    expect(hire).toMatchObject({ box: 20, paid: pounds(390), deducted: pounds(390), coveredByMileage: pounds(390), allowed: 0 });
    expect(totals.costs.unlinked).toBeNull();
  });

  it('counts an actual-cost van’s hire from the courier at the log’s business share, in box 20', () => {
    const r = records({
      deductions: [vanHire({ vehicleId: LEASED.id })],
      expenses: [expense('2025-05-06', pounds(100), { category: 'vehicleHire', vehicleId: LEASED.id })],
      // 300 business of 400 miles: 75%.
      mileage: [miles('2025-05-05', 300, { vehicleId: LEASED.id, commuteMiles: 100 })],
    });
    const { totals } = taxSummary(r, '2025-26', '2026-06-01', 'uk');
    const hire = totals.costs.byCategory.find((c) => c.category === 'vehicleHire');
    // (£390 + £100) × 75% = £367.50, one share for the category, paid and deducted together.
    expect(hire).toMatchObject({ box: 20, mtdField: 'carVanTravelExpenses', paid: pounds(490), deducted: pounds(390), allowed: 36_750 });
    expect(totals.costs.actualCostVehicles).toEqual([{ vehicleId: LEASED.id, name: 'Leased van', businessMiles: 300, totalMiles: 400, costs: pounds(490), allowed: 36_750 }]);
    expect(totals.byMtdField.carVanTravelExpenses).toBe(36_750);
    expect(totals.byMtdField.otherExpenses).toBe(0);
    const rows = totals.costs.occurrences.filter((o) => o.category === 'vehicleHire');
    expect(rows.reduce((sum, o) => sum + o.allowed, 0)).toBe(36_750);
  });

  it('puts a deduction in the box of what it is for, and one that does not say in box 30 as before', () => {
    const r = records({
      deductions: [
        deduction('2025-05-05', pounds(15), { purpose: 'equipment' }),
        deduction('2025-05-05', pounds(20), { purpose: 'vehicleHire' }),
        deduction('2025-05-06', pounds(25)),
      ],
    });
    const { totals } = taxSummary(r, '2025-26', '2026-06-01', 'uk');
    expect(Object.fromEntries(totals.costs.byCategory.map((c) => [c.category, [c.box, c.allowed, c.unsaid]]))).toEqual({
      equipment: [30, pounds(15), 0],
      vehicleHire: [20, pounds(20), 0],
      other: [30, pounds(25), pounds(25)],
    });
    expect(totals.costs.unsaid).toEqual({ paid: pounds(25), deductions: 1 });
    expect(totals.costs.allowed).toBe(pounds(60));
  });

  it('warns, with the amount, about vehicle costs that name no vehicle while a flat-rate vehicle exists', () => {
    const fuel = expense('2025-05-06', 14_199, { category: 'fuel' });
    const hire = vanHire({ vehicleId: null });
    const phone = expense('2025-05-06', pounds(30), { category: 'phone' });
    const r = records({ vehicles: [HIRED], deductions: [hire], expenses: [fuel, phone] });
    const { totals } = taxSummary(r, '2025-26', '2026-06-01', 'uk');
    // Counted in full until linked.
    expect(totals.costs.allowed).toBe(pounds(390) + 14_199 + pounds(30));
    expect(totals.costs.unlinked).toEqual({
      flatRateVehicles: [{ vehicleId: HIRED.id, name: 'Hired van' }],
      paid: pounds(390) + 14_199,
      byCategory: [
        { category: 'vehicleHire', label: 'Vehicle hire or lease', paid: pounds(390) },
        { category: 'fuel', label: 'Fuel', paid: 14_199 },
      ],
      records: [
        { source: 'deduction', recordId: hire.id },
        { source: 'expense', recordId: fuel.id },
      ],
    });
    // No flat-rate vehicle: nothing to warn about (an actual-cost one does not cover them).
    expect(taxSummary(records({ vehicles: [LEASED], deductions: [hire], expenses: [fuel] }), '2025-26', '2026-06-01', 'uk').totals.costs.unlinked).toBeNull();
    // A deleted flat-rate van with no miles this year is not in use.
    expect(taxSummary(records({ vehicles: [{ ...HIRED, deleted: 1 }], expenses: [fuel] }), '2025-26', '2026-06-01', 'uk').totals.costs.unlinked).toBeNull();
  });

  it('shows both methods for a vehicle whose method is still open, and none once it is kept', () => {
    const r = records({
      vehicles: [HIRED, LEASED],
      deductions: [vanHire()],
      expenses: [expense('2025-05-06', pounds(100), { category: 'fuel', vehicleId: LEASED.id })],
      // The hired van: 200 business of 250 miles. The leased van: 80 of 100, and miles last year.
      mileage: [
        miles('2025-05-05', 200, { vehicleId: HIRED.id, commuteMiles: 50 }),
        miles('2025-05-05', 80, { vehicleId: LEASED.id, commuteMiles: 20 }),
        miles('2025-03-01', 10, { vehicleId: LEASED.id }),
      ],
    });
    const { vehicleMethods } = taxSummary(r, '2025-26', '2026-06-01', 'uk');
    // £390 × 80% = £312 of actual costs against 200 × 45p = £90 at the flat rate.
    expect(vehicleMethods).toEqual([
      { vehicleId: HIRED.id, name: 'Hired van', type: 'carVan', method: 'flatRate', businessMiles: 200, totalMiles: 250, flatRate: 9_000, costs: pounds(390), actualCosts: 31_200, better: 'actualCosts' },
    ]);
    // In 2024-25 the leased van's method was still open: 10 miles, its fuel came later.
    expect(taxSummary(r, '2024-25', '2026-06-01', 'uk').vehicleMethods.find((v) => v.vehicleId === LEASED.id)).toMatchObject({ flatRate: 450, actualCosts: 0, better: 'flatRate' });
  });
});

describe('the allowable costs, for any records (fast-check prints its seed)', () => {
  it('never count a cost of a flat-rate vehicle’s running: adding them changes nothing allowable', () => {
    fc.assert(
      fc.property(taxRecordsArb, fc.array(fc.oneof(expenseArb.map((e) => ({ kind: 'expense' as const, e })), deductionArb.map((d) => ({ kind: 'deduction' as const, d }))), { maxLength: 6 }), (base, extra) => {
        // Every extra cost is a running cost of a flat-rate vehicle.
        const expenses = extra.flatMap((x) => (x.kind === 'expense' ? [{ ...x.e, category: 'fuel' as const, vehicleId: FLAT_VAN.id }] : []));
        const deductions = extra.flatMap((x) => (x.kind === 'deduction' ? [{ ...x.d, purpose: 'vehicleHire' as const, vehicleId: FLAT_BIKE.id }] : []));
        const before = taxSummary(base, '2025-26', '2026-06-01', 'uk').totals;
        const after = taxSummary({ ...base, expenses: [...base.expenses, ...expenses], deductions: [...base.deductions, ...deductions] }, '2025-26', '2026-06-01', 'uk').totals;
        expect(after.allowable).toBe(before.allowable);
        expect(after.byMtdField).toEqual(before.byMtdField);
        // And in any records, no flat-rate vehicle's running cost is allowed a penny.
        for (const o of after.costs.occurrences) {
          if (o.vehicleId !== null && FLAT_RATE_IDS.has(o.vehicleId) && expenseCategory(o.category).runningCost) expect(o.allowed).toBe(0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('add up: allowable is the allowed costs plus the mileage claim, by category and by MTD field', () => {
    fc.assert(
      fc.property(taxRecordsArb, (r) => {
        const { totals } = taxSummary(r, '2025-26', '2026-02-01', 'uk');
        const allowed = totals.costs.occurrences.reduce((sum, o) => sum + o.allowed, 0);
        expect(allowed).toBe(totals.costs.allowed);
        expect(totals.costs.byCategory.reduce((sum, c) => sum + c.allowed, 0)).toBe(allowed);
        expect(Object.values(totals.byMtdField).reduce((a, b) => a + b, 0)).toBe(totals.allowable);
        expect(totals.allowable).toBe(allowed + totals.mileage.claimPence);
        expect(totals.profit).toBe(totals.turnover - totals.allowable);
        for (const o of totals.costs.occurrences) expect(o.allowed).toBeLessThanOrEqual(o.paid);
      }),
      { numRuns: 150 },
    );
  });
});

describe('the year and its quarters, for any records (fast-check prints its seed)', () => {
  it('count what the whole records count from each one’s start: the year’s days and miles picked out first change nothing', () => {
    fc.assert(
      fc.property(taxRecordsArb, fc.constantFrom('standard', 'calendar'), fc.constantFrom('2024-25', '2025-26', '2026-27'), fc.array(fc.boolean(), { maxLength: 24 }), (base, election, year, gone) => {
        // Some of them deleted: a tombstone counts in no figure.
        const deleted = <T extends object>(list: readonly T[], offset: number) => list.map((record, i) => (gone[i + offset] ? { ...record, deleted: 1 as const } : record));
        const r = { ...base, entries: deleted(base.entries, 0), mileage: deleted(base.mileage, 12) };
        const today = '2026-02-01';
        const summary = taxSummary(r, year, today, 'uk', election);
        expect(summary.totals).toEqual(runningTotals(r, year, summary.to, today));
        for (const quarter of summary.quarters) expect(quarter.totals).toEqual(runningTotals(r, year, quarter.to, today, quarter.periodStart));
      }),
      { numRuns: 200 },
    );
  });
});

describe('expenses or the £1,000 trading allowance', () => {
  // GOV.UK "Tax-free allowances on property and trading income": the £1,000 trading allowance
  // may be deducted instead of the actual expenses; you cannot deduct both.
  it.each([
    ['turnover under £1,000: the allowance leaves no profit', 90_000, 10_000, 'allowance', 0],
    ['small expenses: the allowance is better', pounds(20_000), pounds(500), 'allowance', pounds(19_000)],
    ['expenses of exactly £1,000: the same, expenses are kept', pounds(20_000), pounds(1_000), 'expenses', pounds(19_000)],
    ['larger expenses are better', pounds(20_000), pounds(3_000), 'expenses', pounds(17_000)],
    ['a loss under expenses stays the better choice', pounds(2_000), pounds(2_500), 'expenses', 0],
  ] as const)('%s', (_, turnover, allowable, better, taxable) => {
    const choice = chooseProfit(turnover, allowable, pounds(1_000));
    expect(choice.better).toBe(better);
    expect(choice.taxable).toBe(taxable);
    expect(choice.withExpenses).toBe(turnover - allowable);
    expect(choice.withAllowance).toBe(Math.max(0, turnover - pounds(1_000)));
  });

  it('uses the year data’s allowance and shows both figures', () => {
    const r = records({ entries: [day('2025-06-01', pounds(20_000))], expenses: [expense('2025-06-01', pounds(400))] });
    const { profit } = taxSummary(r, '2025-26', '2026-06-01', 'uk');
    expect(profit).toEqual({ withExpenses: pounds(19_600), withAllowance: pounds(19_000), allowance: pounds(1_000), better: 'allowance', taxable: pounds(19_000) });
  });
});

describe('the tax estimate', () => {
  const r = records({
    entries: [day('2025-05-01', pounds(30_000)), day('2025-09-01', pounds(12_000), DPD.id)],
    expenses: [expense('2025-05-01', pounds(1_500), { category: 'insurance' })],
    mileage: [miles('2025-05-02', 1_000)],
  });
  // Profit £42,000 − £1,500 − 1,000 × 45p = £40,050.
  const profit = pounds(40_050);

  it('charges Income Tax in the chosen region and Class 4 on the profit, and sets both aside', () => {
    const { rates } = taxYearRates('2025-26');
    for (const region of ['uk', 'scotland'] as const) {
      const summary = taxSummary(r, '2025-26', '2026-06-01', region);
      expect(summary.profit.taxable).toBe(profit);
      expect(summary.incomeTax).toEqual(incomeTax(profit, rates, region));
      expect(summary.class4).toEqual(class4(profit, rates));
      expect(summary.class2.contribution).toBe(0);
      expect(summary.setAside).toBe(summary.incomeTax.tax + summary.class4.contribution);
    }
    // UK: £27,480 × 20% = £5,496; Class 4: £27,480 × 6% = £1,648.80.
    const uk = taxSummary(r, '2025-26', '2026-06-01', 'uk');
    expect([uk.incomeTax.tax, uk.class4.contribution, uk.setAside]).toEqual([549_600, 164_880, 714_480]);
    // Scotland: £2,827 × 19% + £12,094 × 20% + £12,559 × 21% = £537.13 + £2,418.80 + £2,637.39.
    expect(taxSummary(r, '2025-26', '2026-06-01', 'scotland').incomeTax.tax).toBe(559_332);
  });

  it('adds Class 2 in a year it was compulsory', () => {
    const old = records({ entries: [day('2023-05-01', pounds(20_000))] });
    const summary = taxSummary(old, '2023-24', '2026-06-01', 'uk');
    expect(summary.class2).toEqual({ payable: true, contribution: 17_940 });
    expect(summary.setAside).toBe(summary.incomeTax.tax + summary.class4.contribution + 17_940);
  });

  it('gives the Self Assessment dates and payments on account from a £1,000 bill', () => {
    const summary = taxSummary(r, '2025-26', '2026-06-01', 'uk');
    expect(summary.dates.returnAndBalance).toBe('2027-01-31');
    expect(summary.paymentsOnAccount).toEqual({ each: 714_480 / 2, dates: ['2027-01-31', '2027-07-31'] });
    // £17,570 profit: £1,000 Income Tax + £300 Class 4 = £1,300, over £1,000.
    const over = taxSummary(records({ entries: [day('2025-05-01', pounds(17_570))] }), '2025-26', '2026-06-01', 'uk');
    expect(over.profit.taxable).toBe(pounds(16_570));
    expect(over.paymentsOnAccount?.each).toBe(Math.floor((pounds(800) + pounds(240)) / 2));
    // £16,000 turnover, £15,000 profit: £486 + £145.80 = £631.80, no payments on account.
    const under = taxSummary(records({ entries: [day('2025-05-01', pounds(16_000))] }), '2025-26', '2026-06-01', 'uk');
    expect(under.setAside).toBe(48_600 + 14_580);
    expect(under.paymentsOnAccount).toBeNull();
  });

  it('says when a year’s rates are not in the data and which year’s are used', () => {
    const summary = taxSummary(records({}), '2030-31', '2030-06-01', 'uk');
    expect(summary.rates).toEqual({ from: '2026-27', assumed: true });
    expect(taxSummary(records({}), '2025-26', '2025-06-01', 'uk').rates).toEqual({ from: '2025-26', assumed: false });
  });
});

describe('the MTD quarters, cumulative', () => {
  // GOV.UK "Use Making Tax Digital for Income Tax": quarters 6 Apr–5 Jul, 6 Jul–5 Oct,
  // 6 Oct–5 Jan, 6 Jan–5 Apr; each update is cumulative from the start of the tax year.
  const r = records({
    entries: [day('2025-07-05', pounds(100)), day('2025-07-06', pounds(200)), day('2026-01-05', pounds(400)), day('2026-01-06', pounds(800))],
    expenses: [expense('2025-07-05', pounds(1), { category: 'fuel' }), expense('2025-07-06', pounds(2)), expense('2026-01-05', pounds(4), { category: 'accountancy' }), expense('2026-01-06', pounds(8))],
    mileage: [miles('2025-07-05', 10), miles('2025-07-06', 20), miles('2026-01-05', 40), miles('2026-01-06', 80)],
  });

  it('puts 5 July in Q1, 6 July in Q2, 5 January in Q3 and 6 January in Q4, and adds up from 6 April', () => {
    const summary = taxSummary(r, '2025-26', '2026-06-01', 'uk');
    expect(summary.quarters.map((q) => [q.from, q.to, q.due, q.status])).toEqual([
      ['2025-04-06', '2025-07-05', '2025-08-07', 'ended'],
      ['2025-07-06', '2025-10-05', '2025-11-07', 'ended'],
      ['2025-10-06', '2026-01-05', '2026-02-07', 'ended'],
      ['2026-01-06', '2026-04-05', '2026-05-07', 'ended'],
    ]);
    expect(summary.quarters.map((q) => q.totals.turnover)).toEqual([pounds(100), pounds(300), pounds(700), pounds(1_500)]);
    expect(summary.quarters.map((q) => q.totals.costs.allowed)).toEqual([pounds(1), pounds(3), pounds(7), pounds(15)]);
    expect(summary.quarters.map((q) => q.totals.mileage.claimPence)).toEqual([450, 1_350, 3_150, 6_750]);
    expect(summary.quarters.map((q) => q.totals.byMtdField.carVanTravelExpenses)).toEqual([550, 1_450, 3_250, 6_850]);
    expect(summary.quarters.map((q) => q.totals.byMtdField.professionalFees)).toEqual([0, 0, pounds(4), pounds(4)]);
    expect(summary.quarters.map((q) => q.totals.profit)).toEqual([pounds(100) - 550, pounds(300) - 1_650, pounds(700) - 3_850, pounds(1_500) - 8_250]);
    expect(summary.quarters[3]!.totals).toEqual(summary.totals);
  });

  it('knows which quarters have ended, which runs now and which have not started', () => {
    const summary = taxSummary(r, '2025-26', '2025-10-05', 'uk');
    expect(summary.quarters.map((q) => q.status)).toEqual(['ended', 'current', 'notStarted', 'notStarted']);
  });
});

describe('Making Tax Digital', () => {
  it("decides this year and the coming ones from each year's turnover, and simplified updates from this one's", () => {
    // 2024-25: £52,000 (over £50,000: MTD from 2026-27); 2025-26: £25,000 (not over £30,000).
    const r = records({ entries: [day('2024-06-01', pounds(52_000)), day('2025-06-01', pounds(25_000))] });
    const summary = taxSummary(r, '2025-26', '2026-05-01', 'uk');
    expect(summary.mtd.map((m) => [m.year, m.qualifyingYear, m.income, m.required])).toEqual([
      ['2026-27', '2024-25', pounds(52_000), true],
      ['2027-28', '2025-26', pounds(25_000), false],
      ['2028-29', '2026-27', 0, false],
    ]);
    expect(summary.simplifiedUpdates).toBe(true);
  });
});

describe('helpers', () => {
  it('apportions a total in whole pence that add up exactly', () => {
    expect(apportion(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(apportion(24_000, [10_000, 20_000])).toEqual([8_000, 16_000]);
    expect(apportion(801, [1_001])).toEqual([801]);
    expect(apportion(5, [0, 0])).toEqual([0, 0]);
    const parts = apportion(9_999, [3, 7, 11, 13]);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(9_999);
  });

  it('lists the years with records and the current one, newest first', () => {
    const r = records({
      entries: [day('2023-05-01', 100), day('2025-04-05', 100)],
      expenses: [expense('2021-12-01', 100)],
      mileage: [miles('2030-01-01', 5)],
    });
    expect(yearsWithRecords(r, '2026-05-01')).toEqual(['2026-27', '2024-25', '2023-24', '2021-22']);
  });
});
