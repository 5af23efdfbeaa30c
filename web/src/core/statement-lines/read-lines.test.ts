import perDayCsv from './fixtures/per-day.csv?raw';
import perParcelCsv from './fixtures/per-parcel.csv?raw';
import withDeductionsCsv from './fixtures/with-deductions.csv?raw';
import { describe, expect, it } from 'vitest';
import { missingColumns, readDate, readLines, readMoney, readStatementTable } from './read-lines';
import { suggestFormat } from './suggest-format';

const FIXTURES: Record<string, string> = { 'per-day.csv': perDayCsv, 'per-parcel.csv': perParcelCsv, 'with-deductions.csv': withDeductionsCsv };
const fixture = (name: string) => FIXTURES[name] ?? '';
const COURIER = '0190a6e2-7c1d-7000-8000-0000000000c1';

function readFixture(name: string) {
  const table = readStatementTable(fixture(name));
  const format = suggestFormat(table, COURIER);
  return { table, format, ...readLines(table, format) };
}

describe('reading cells', () => {
  it('reads money with its sign, exactly, and refuses what it cannot read', () => {
    expect([readMoney('£1,234.50'), readMoney('-2.50'), readMoney('−2.50'), readMoney('(£12.00)'), readMoney(' 0.35 ')]).toEqual([123_450, -250, -250, -1_200, 35]);
    expect([readMoney('1.234'), readMoney('12,50'), readMoney(''), readMoney('abc')]).toEqual([null, null, null, null]);
  });

  it("reads dates in the format's order and refuses days that do not exist", () => {
    expect(readDate('03/04/2025', 'dayMonthYear')).toBe('2025-04-03');
    expect(readDate('03/04/2025', 'monthDayYear')).toBe('2025-03-04');
    expect(readDate('2025/04/03', 'yearMonthDay')).toBe('2025-04-03');
    expect(readDate('2025-04-03', 'monthDayYear')).toBe('2025-04-03');
    expect([readDate('31/04/2025', 'dayMonthYear'), readDate('tomorrow', 'dayMonthYear')]).toEqual([null, null]);
  });
});

describe('the three statement layouts', () => {
  it('per day: one stop line a day, and a route rate', () => {
    const { format, rows, problems } = readFixture('per-day.csv');
    expect(problems).toEqual([]);
    expect(format).toMatchObject({ dateColumn: 'Date', amountColumn: 'Amount (£)', quantityColumn: 'Stops', rateColumn: 'Rate (£)', dateOrder: 'dayMonthYear' });
    expect(rows.map((r) => r.line)).toEqual([
      { date: '2025-03-17', lineType: 'stop', band: null, quantity: 118, rate: 148, amount: 17_464, reference: 'R12' },
      { date: '2025-03-18', lineType: 'stop', band: null, quantity: 121, rate: 148, amount: 17_908, reference: 'R12' },
      { date: '2025-03-19', lineType: 'stop', band: null, quantity: 109, rate: 148, amount: 16_132, reference: 'R12' },
      { date: '2025-03-21', lineType: 'stop', band: null, quantity: 96, rate: 148, amount: 14_208, reference: 'R14' },
      { date: '2025-03-21', lineType: 'dayRate', band: null, quantity: 1, rate: 2_000, amount: 2_000, reference: 'R14' },
    ]);
  });

  it('per parcel with size bands: each parcel in its band, a collection, a failed item and a charge taken twice', () => {
    const { format, rows, problems } = readFixture('per-parcel.csv');
    expect(problems).toEqual([]);
    expect(format).toMatchObject({ bandColumn: 'Size', typeColumn: 'Service', referenceColumn: 'Barcode', dateOrder: 'yearMonthDay', deductionsPositive: true });
    const lines = rows.map((r) => r.line);
    expect(lines.filter((l) => l.lineType === 'parcel').map((l) => l.band)).toEqual(['small', 'packet', 'packet', 'medium', 'large', 'small']);
    expect(lines.filter((l) => l.lineType !== 'parcel').map((l) => [l.lineType, l.amount])).toEqual([
      ['collection', 25],
      ['failed', 10],
      ['deduction', -200],
      ['deduction', -200],
    ]);
  });

  it('with deductions and adjustments: ;-separated, deductions written as plain sums taken off, an accountant’s minus read', () => {
    const { rows, problems } = readFixture('with-deductions.csv');
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.line.date, r.line.lineType, r.line.amount])).toEqual([
      ['2025-03-24', 'stop', 17_760],
      ['2025-03-25', 'stop', 17_464],
      ['2025-03-25', 'deduction', -17_500],
      ['2025-03-26', 'deduction', -6_230],
      ['2025-03-26', 'adjustment', 16_132],
      ['2025-03-27', 'adjustment', -1_200],
    ]);
  });

  it('names each bad row and column, and a format whose columns the file lacks', () => {
    const table = readStatementTable('Date,Service,Amount\n31/02/2025,Delivery,1.00\n01/03/2025,Teleport,1.00\n02/03/2025,Delivery,-1.00\n03/03/2025,Delivery,1.005\n');
    const format = { ...suggestFormat(table, COURIER), typeWords: [{ word: 'Delivery', lineType: 'stop' as const, band: null }] };
    expect(readLines(table, format).problems).toEqual([
      { row: 2, problem: 'Date "31/02/2025" is not a date' },
      { row: 3, problem: 'Service "Teleport" is not a type this format names' },
      { row: 4, problem: 'Amount "-1.00" is below zero on a stop line' },
      { row: 5, problem: 'Amount "1.005" is not an amount' },
    ]);
    expect(missingColumns({ ...format, rateColumn: 'Rate' }, table.header)).toEqual(['Rate']);
  });
});
