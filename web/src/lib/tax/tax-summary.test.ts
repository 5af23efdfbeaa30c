import { describe, expect, it } from 'vitest';
import type { DeductionContent, EntryContent, ExpenseContent, MileageContent, VehicleContent } from '@/sync/types';
import { incomeTax } from './income-tax';
import { class4 } from './national-insurance';
import { taxYearRates } from './tax-year';
import { apportion, chooseProfit, taxSummary, yearsWithRecords, type TaxRecords } from './tax-summary';

const pounds = (value: number) => value * 100;
let n = 0;
const nextId = (prefix: string) => `${prefix}-${String((n += 1)).padStart(4, '0')}`;

const EVRI = { id: 'courier-evri', name: 'Evri' };
const DPD = { id: 'courier-dpd', name: 'DPD' };
const VAN = { id: 'vehicle-van', name: 'Van', type: 'carVan', method: 'flatRate' } as const satisfies VehicleContent & { id: string };
const LEASED = { id: 'vehicle-leased', name: 'Leased van', type: 'carVan', method: 'actualCosts' } as const satisfies VehicleContent & { id: string };

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
    expect([old.totals.turnover, old.totals.expenses.allowed, old.totals.mileage.claimPence]).toEqual([pounds(100), pounds(10), 10 * 45]);
    expect([current.totals.turnover, current.totals.expenses.allowed, current.totals.mileage.claimPence]).toEqual([pounds(150), pounds(20), 20 * 45]);
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
    expect(summary.totals.deductions).toBe(pounds(50));
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
    expect(summary.totals.expenses.occurrences.map((o) => [o.date, o.category, o.allowed])).toEqual([
      ['2025-04-09', 'subscriptions', pounds(3)],
      ['2025-04-15', 'phone', pounds(20)],
      ['2025-04-16', 'subscriptions', pounds(3)],
      ['2025-05-15', 'phone', pounds(20)],
      ['2025-06-15', 'phone', pounds(20)],
    ]);
    expect(summary.totals.expenses.byCategory.map((c) => [c.label, c.box, c.allowed])).toEqual([
      ['Phone and data', 23, pounds(60)],
      ['Software and subscriptions', 23, pounds(6)],
    ]);
    expect(summary.through).toBe('2025-06-20');
    // A finished year expands to 5 April.
    expect(taxSummary(r, '2024-25', '2025-06-20', 'uk').totals.expenses.allowed).toBe(pounds(60));
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
    const byCategory = Object.fromEntries(summary.totals.expenses.byCategory.map((c) => [c.category, c]));
    expect(byCategory.fuel).toMatchObject({ paid: pounds(50) + pounds(40) + 1_001, coveredByMileage: pounds(50), allowed: pounds(40) + 801 });
    expect(byCategory.vehicleRepairs).toMatchObject({ paid: pounds(300), allowed: pounds(240) });
    expect(byCategory.parkingTolls).toMatchObject({ allowed: pounds(6) });
    expect(summary.totals.expenses.coveredByMileage).toBe(pounds(50));
    expect(summary.totals.expenses.actualCostVehicles).toEqual([
      { vehicleId: LEASED.id, name: 'Leased van', businessMiles: 800, totalMiles: 1_000, costs: pounds(300) + 1_001, allowed: pounds(240) + 801 },
    ]);
    // Each row carries its part, adding up to the category's share: £80 + £160.
    const repairs = summary.totals.expenses.occurrences.filter((o) => o.category === 'vehicleRepairs');
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
    expect(summary.totals.expenses.allowed).toBe(0);
    expect(summary.totals.expenses.actualCostVehicles[0]).toMatchObject({ costs: pounds(100), allowed: 0, totalMiles: 0 });
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
    expect(summary.quarters.map((q) => q.totals.expenses.allowed)).toEqual([pounds(1), pounds(3), pounds(7), pounds(15)]);
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
