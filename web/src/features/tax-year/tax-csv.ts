// The tax year's two CSV files, made on the device (so they work offline) from the same figures
// the screen shows.
//
// 1. Records: one row per day's pay, courier deduction, expense occurrence and mileage claim,
//    for bridging software and spreadsheets. Columns: Date, Description, Category, Amount,
//    then Type, SA103 box and MTD field. The first four are what bridging tools map on import
//    (a transaction list: date, text, category, one signed amount); Type lets a spreadsheet
//    filter money in from money out; the box and field let a tool or an accountant total the
//    rows straight into the return's boxes or a quarterly update's fields.
//    Sign: ONE signed Amount column, money in positive, money out (expenses, deductions, the
//    mileage claim) negative: the convention of bank-statement style imports (Xero's precoded
//    statement CSV, FreeAgent's and QuickBooks' single Amount column), so the file's sum is
//    the profit. Only allowable amounts are written: a flat-rate vehicle's running costs, paid
//    or deducted by a courier, are left out (the mileage rate covers them) and an actual-cost
//    vehicle's rows carry their business share, so the rows add up to the screen's figures
//    exactly. A courier's deduction is a cost row in the category it is for.
//    Dates are dd/mm/yyyy like the history export (and UK bookkeeping imports); amounts are
//    pounds with two decimals and no £, so they read as numbers.
// 2. Quarters: one row per MTD quarter with the cumulative figures from 6 April, one column per
//    MTD expense field (the mileage claim inside car, van and travel, and shown on its own too).
import { csvFile, csvText } from '@/lib/csv-write';
import { claimLineWords } from '@/features/mileage/mileage-words';
import { countWords, formatShortDate } from '@/lib/format';
import { penceToPounds } from '@/core/money/money';
import { expenseCategory, MTD_EXPENSE_FIELDS } from '@/core/tax/expense-categories';
import { taxYearRates } from '@/core/tax/tax-year';
import { MILEAGE_BOX, MILEAGE_MTD_FIELD, type QuarterStatus, type TaxRecords, type TaxSummary } from '@/core/tax/tax-summary';

export const RECORDS_HEADER = ['Date', 'Description', 'Category', 'Amount', 'Type', 'SA103 box', 'MTD field'] as const;

/** SA103F box 15, "Your turnover"; MTD's periodIncome.turnover. */
const TURNOVER_BOX = '15';
const TURNOVER_FIELD = 'turnover';

type RowType = 'Income' | 'Expense' | 'Mileage';
const TYPE_ORDER: Record<RowType, number> = { Income: 0, Expense: 1, Mileage: 2 };

interface Row {
  date: string;
  description: string;
  category: string;
  amount: number;
  type: RowType;
  box: string;
  field: string;
}

const percentOf = (part: number, whole: number) => `${new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 }).format((part / whole) * 100)}%`;

/** A stretch the records file covers: the tax year, or a quarterly update's cumulative period. */
export type RecordsPeriod = Pick<TaxSummary, 'year' | 'from' | 'to' | 'totals'>;

/** The records file's rows, oldest first (a day's income, then its costs, then its miles). */
export function recordRows(summary: RecordsPeriod, records: TaxRecords): Row[] {
  const courierName = new Map(summary.totals.couriers.map((courier) => [courier.courierId, courier.name]));
  const vehicleName = new Map(records.vehicles.map((vehicle) => [vehicle.id, vehicle.name]));
  const rows: Row[] = [];

  for (const entry of records.entries) {
    if (entry.deleted === 1 || entry.date < summary.from || entry.date > summary.to) continue;
    rows.push({
      date: entry.date,
      description: `${courierName.get(entry.courierId) ?? 'Removed courier'}: ${countWords(entry.stops, 'stop')}`,
      category: 'Turnover',
      amount: entry.total,
      type: 'Income',
      box: TURNOVER_BOX,
      field: TURNOVER_FIELD,
    });
  }

  const shares = new Map(summary.totals.costs.actualCostVehicles.map((vehicle) => [vehicle.vehicleId, vehicle]));
  for (const occurrence of summary.totals.costs.occurrences) {
    if (occurrence.allowed === 0) continue;
    const info = expenseCategory(occurrence.category);
    const share = occurrence.treatment === 'businessShare' && occurrence.vehicleId ? shares.get(occurrence.vehicleId) : undefined;
    const text =
      occurrence.source === 'deduction' ? `${courierName.get(occurrence.courierId ?? '') ?? 'Removed courier'}: ${occurrence.note}` : occurrence.note || info.label;
    rows.push({
      date: occurrence.date,
      description: share ? `${text} (${percentOf(share.businessMiles, share.totalMiles)} business use of ${share.name})` : text,
      category: info.label,
      amount: -occurrence.allowed,
      type: 'Expense',
      box: String(info.box),
      field: info.mtdField,
    });
  }

  const { rates } = taxYearRates(summary.year);
  for (const vehicle of summary.totals.mileage.vehicles) {
    const rate = rates.mileage[vehicle.type];
    for (const line of vehicle.lines) {
      if (line.claimPence === 0 || !rate) continue;
      rows.push({
        date: line.date,
        description: `${vehicleName.get(vehicle.vehicleId) ?? vehicle.name}: ${countWords(line.businessMiles, 'business mile')}, ${claimLineWords(line, rate)}`,
        category: 'Mileage (simplified expenses)',
        amount: -line.claimPence,
        type: 'Mileage',
        box: String(MILEAGE_BOX),
        field: MILEAGE_MTD_FIELD,
      });
    }
  }

  return rows.sort((a, b) => a.date.localeCompare(b.date) || TYPE_ORDER[a.type] - TYPE_ORDER[b.type]);
}

export function recordsCsv(summary: RecordsPeriod, records: TaxRecords): string {
  const rows = recordRows(summary, records).map((row) => [
    formatShortDate(row.date),
    csvText(row.description),
    row.category,
    penceToPounds(row.amount),
    row.type,
    row.box,
    row.field,
  ]);
  return csvFile([[...RECORDS_HEADER], ...rows]);
}

export const QUARTERS_HEADER = [
  'Quarter',
  'From',
  'To',
  'Due',
  'Status',
  'Turnover',
  ...MTD_EXPENSE_FIELDS.map(({ field, label }) => `${label} (${field})`),
  'Of which mileage claim',
  'Total expenses',
  'Profit',
] as const;

const STATUS: Record<QuarterStatus, string> = { ended: 'Ended', current: 'In progress', notStarted: 'Not started' };

export function quartersCsv(summary: TaxSummary): string {
  const rows = summary.quarters.map((quarter) => [
    `Q${quarter.number} ${summary.year}`,
    formatShortDate(quarter.from),
    formatShortDate(quarter.to),
    formatShortDate(quarter.due),
    STATUS[quarter.status],
    penceToPounds(quarter.totals.turnover),
    ...MTD_EXPENSE_FIELDS.map(({ field }) => penceToPounds(quarter.totals.byMtdField[field])),
    penceToPounds(quarter.totals.mileage.claimPence),
    penceToPounds(quarter.totals.allowable),
    penceToPounds(quarter.totals.profit),
  ]);
  return csvFile([[...QUARTERS_HEADER], ...rows]);
}

export function taxCsvFileName(year: string, part: 'records' | 'quarters'): string {
  return `delivery-tracker-tax-year-${year}-${part}.csv`;
}
