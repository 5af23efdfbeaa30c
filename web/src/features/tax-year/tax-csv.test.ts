import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { taxRecordsArb } from '@/testing/tax-arbitraries';
import { parseCsv } from '@/lib/csv-parse';
import { taxSummary, type TaxRecords } from '@/core/tax/tax-summary';
import type { ExpenseContent, MileageContent } from '@/sync/types';
import { QUARTERS_HEADER, quartersCsv, RECORDS_HEADER, recordsCsv, taxCsvFileName } from './tax-csv';

const EVRI = { id: 'courier-evri', name: 'Evri' };
const DPD = { id: 'courier-dpd', name: 'DPD' };
const VAN = { id: 'vehicle-van', name: 'Van', type: 'carVan', method: 'flatRate', commuteMiles: 0 } as const;
const LEASED = { id: 'vehicle-leased', name: 'Leased van', type: 'carVan', method: 'actualCosts', commuteMiles: 0 } as const;

const expense = (id: string, date: string, amount: number, fields: Partial<ExpenseContent> = {}): ExpenseContent & { id: string } => ({
  id,
  date,
  amount,
  category: 'phone',
  note: '',
  courierId: null,
  vehicleId: null,
  repeat: 'once',
  repeatUntil: null,
  receipts: [],
  ...fields,
});
const trip = (id: string, date: string, businessMiles: number, fields: Partial<MileageContent> = {}): MileageContent & { id: string } => ({
  id,
  date,
  vehicleId: VAN.id,
  courierId: null,
  odometerStart: null,
  odometerEnd: null,
  businessMiles,
  commuteMiles: 0,
  note: '',
  ...fields,
});

const records: TaxRecords = {
  couriers: [EVRI, DPD],
  vehicles: [VAN, LEASED],
  entries: [
    { id: 'e1', date: '2025-04-05', total: 99_999, courierId: EVRI.id, stops: 10 },
    { id: 'e2', date: '2025-04-06', total: 15_000, courierId: EVRI.id, stops: 80 },
    { id: 'e3', date: '2025-04-07', total: 12_345, courierId: DPD.id, stops: 1 },
    { id: 'e4', date: '2025-04-08', total: 50_000, courierId: DPD.id, stops: 200, deleted: 1 },
  ],
  deductions: [{ id: 'd1', courierId: EVRI.id, label: 'Van hire, weekly', amount: 2_500, repeat: 'weekly', from: '2025-04-07', to: null, purpose: null, vehicleId: null }],
  expenses: [
    // Monthly phone: 10 April and 10 May by 15 May.
    expense('x1', '2025-04-10', 1_500, { repeat: 'monthly', note: '=SUM(A1) "unlimited" plan' }),
    // A flat-rate van's fuel: covered by the mileage rate, not written.
    expense('x2', '2025-04-11', 6_000, { category: 'fuel', vehicleId: VAN.id }),
    // The leased van's insurance at 75% business use.
    expense('x3', '2025-04-12', 10_001, { category: 'vehicleInsurance', vehicleId: LEASED.id }),
  ],
  mileage: [
    trip('m1', '2025-04-06', 9_990),
    trip('m2', '2025-04-07', 20),
    trip('m3', '2025-04-08', 300, { vehicleId: LEASED.id, commuteMiles: 100 }),
  ],
};

const summary = taxSummary(records, '2025-26', '2025-05-15', 'uk');
const read = (csv: string) => {
  expect(csv.startsWith('\uFEFF')).toBe(true);
  return parseCsv(csv.slice(1));
};

describe('the records CSV', () => {
  it('has one row per day, deduction, expense occurrence and mileage claim, money in positive and money out negative', () => {
    const [header, ...rows] = read(recordsCsv(summary, records));
    expect(header).toEqual([...RECORDS_HEADER]);
    expect(rows).toEqual([
      ['06/04/2025', 'Evri: 80 stops', 'Turnover', '150.00', 'Income', '15', 'turnover'],
      ['06/04/2025', 'Van: 9,990 business miles, 9,990 miles at 45p', 'Mileage (simplified expenses)', '-4495.50', 'Mileage', '20', 'carVanTravelExpenses'],
      ['07/04/2025', 'DPD: 1 stop', 'Turnover', '123.45', 'Income', '15', 'turnover'],
      ['07/04/2025', 'Evri: Van hire, weekly', 'Other business costs', '-25.00', 'Expense', '30', 'otherExpenses'],
      ['07/04/2025', 'Van: 20 business miles, 10 miles at 45p + 10 at 25p', 'Mileage (simplified expenses)', '-7.00', 'Mileage', '20', 'carVanTravelExpenses'],
      ['10/04/2025', `'=SUM(A1) "unlimited" plan`, 'Phone and data', '-15.00', 'Expense', '23', 'adminCosts'],
      ['12/04/2025', 'Vehicle insurance (75% business use of Leased van)', 'Vehicle insurance', '-75.01', 'Expense', '20', 'carVanTravelExpenses'],
      ['14/04/2025', 'Evri: Van hire, weekly', 'Other business costs', '-25.00', 'Expense', '30', 'otherExpenses'],
      ['21/04/2025', 'Evri: Van hire, weekly', 'Other business costs', '-25.00', 'Expense', '30', 'otherExpenses'],
      ['28/04/2025', 'Evri: Van hire, weekly', 'Other business costs', '-25.00', 'Expense', '30', 'otherExpenses'],
      ['05/05/2025', 'Evri: Van hire, weekly', 'Other business costs', '-25.00', 'Expense', '30', 'otherExpenses'],
      ['10/05/2025', `'=SUM(A1) "unlimited" plan`, 'Phone and data', '-15.00', 'Expense', '23', 'adminCosts'],
      ['12/05/2025', 'Evri: Van hire, weekly', 'Other business costs', '-25.00', 'Expense', '30', 'otherExpenses'],
    ]);
  });

  it('adds up to the profit the screen shows', () => {
    const [, ...rows] = read(recordsCsv(summary, records));
    const pence = rows.reduce((sum, row) => sum + Math.round(Number(row[3]) * 100), 0);
    expect(pence).toBe(summary.totals.profit);
    expect(summary.totals.profit).toBe(15_000 + 12_345 - 6 * 2_500 - 2 * 1_500 - 7_501 - 449_550 - 700);
  });

  it('writes a deduction for a flat-rate van as nothing, and one for an actual-cost van at its share in box 20', () => {
    const withPurposes: TaxRecords = {
      ...records,
      deductions: [
        { id: 'd-flat', courierId: DPD.id, label: 'Van hire', amount: 19_500, repeat: 'once', from: '2025-04-14', to: null, purpose: 'vehicleHire', vehicleId: VAN.id },
        { id: 'd-leased', courierId: DPD.id, label: 'Lease', amount: 10_001, repeat: 'once', from: '2025-04-15', to: null, purpose: 'vehicleHire', vehicleId: LEASED.id },
      ],
    };
    const rows = read(recordsCsv(taxSummary(withPurposes, '2025-26', '2025-05-15', 'uk'), withPurposes)).slice(1);
    expect(rows.filter((row) => row[1]!.startsWith('DPD: ') && row[4] === 'Expense')).toEqual([['15/04/2025', 'DPD: Lease (75% business use of Leased van)', 'Vehicle hire or lease', '-75.01', 'Expense', '20', 'carVanTravelExpenses']]);
  });

  it('adds up to the profit shown, and each kind of row to its figure, for any records (fast-check prints its seed)', () => {
    fc.assert(
      fc.property(taxRecordsArb, fc.constantFrom('2025-05-15', '2025-11-30', '2026-06-01'), (r, today) => {
        const shown = taxSummary(r, '2025-26', today, 'uk');
        const rows = read(recordsCsv(shown, r)).slice(1);
        // Pence of the rows that pass; money out as a positive figure with `out`.
        const pence = (keep: (row: string[]) => boolean, out = false) => rows.filter(keep).reduce((total, row) => total + Math.round(Number(row[3]) * 100) * (out ? -1 : 1), 0);
        const sum = (type?: string) => pence((row) => !type || row[4] === type);
        expect(sum()).toBe(shown.profit.withExpenses);
        expect(sum()).toBe(shown.totals.profit);
        expect(sum('Income')).toBe(shown.totals.turnover);
        expect(pence((row) => row[4] === 'Expense', true)).toBe(shown.totals.costs.allowed);
        expect(pence((row) => row[4] === 'Mileage', true)).toBe(shown.totals.mileage.claimPence);
        // By box: the rows of each SA103 box add up to the allowed costs the screen puts in it.
        for (const category of shown.totals.costs.byCategory) {
          const inBox = shown.totals.costs.byCategory.filter((c) => c.box === category.box).reduce((total, c) => total + c.allowed, 0) + (category.box === 20 ? shown.totals.mileage.claimPence : 0);
          expect(pence((row) => row[4] !== 'Income' && row[5] === String(category.box), true)).toBe(inBox);
        }
      }),
      { numRuns: 120 },
    );
  });

  it('quotes fields with commas and quotes, and ends every line with CRLF', () => {
    const csv = recordsCsv(summary, records);
    expect(csv).toContain('"Evri: Van hire, weekly"');
    expect(csv).toContain(`"'=SUM(A1) ""unlimited"" plan"`);
    expect(csv.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
  });

  it('is just the header for an empty year', () => {
    const empty = taxSummary({ ...records, entries: [], deductions: [], expenses: [], mileage: [] }, '2025-26', '2025-05-15', 'uk');
    expect(read(recordsCsv(empty, { ...records, entries: [], deductions: [], expenses: [], mileage: [] }))).toEqual([[...RECORDS_HEADER]]);
  });
});

describe('the quarterly summary CSV', () => {
  it('has one row per quarter with cumulative figures by MTD field', () => {
    const [header, ...rows] = read(quartersCsv(summary));
    expect(header).toEqual([...QUARTERS_HEADER]);
    expect(header).toEqual([
      'Quarter',
      'From',
      'To',
      'Due',
      'Status',
      'Turnover',
      'Car, van and travel (carVanTravelExpenses)',
      'Premises running costs (premisesRunningCosts)',
      'Repairs and maintenance (maintenanceCosts)',
      'Admin costs (adminCosts)',
      'Finance charges (financeCharges)',
      'Professional fees (professionalFees)',
      'Other expenses (otherExpenses)',
      'Of which mileage claim',
      'Total expenses',
      'Profit',
    ]);
    // Q1 so far (to 15 May): turnover £273.45; car/van = £75.01 insurance + £4,502.50 miles;
    // admin £30 phone; other £150 deductions; profit £273.45 − £4,757.51.
    const q1 = ['Q1 2025-26', '06/04/2025', '05/07/2025', '07/08/2025', 'In progress', '273.45', '4577.51', '0.00', '0.00', '30.00', '0.00', '0.00', '150.00', '4502.50', '4757.51', '-4484.06'];
    expect(rows).toEqual([
      q1,
      ['Q2 2025-26', '06/07/2025', '05/10/2025', '07/11/2025', 'Not started', ...q1.slice(5)],
      ['Q3 2025-26', '06/10/2025', '05/01/2026', '07/02/2026', 'Not started', ...q1.slice(5)],
      ['Q4 2025-26', '06/01/2026', '05/04/2026', '07/05/2026', 'Not started', ...q1.slice(5)],
    ]);
  });

  it('names the files by tax year', () => {
    expect(taxCsvFileName('2025-26', 'records')).toBe('delivery-tracker-tax-year-2025-26-records.csv');
    expect(taxCsvFileName('2025-26', 'quarters')).toBe('delivery-tracker-tax-year-2025-26-quarters.csv');
  });
});
