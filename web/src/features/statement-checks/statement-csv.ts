// A courier's statement exported as CSV, read into the statement check form for the driver to
// review before saving. The first row names the columns; Total (or Paid), Stops, Parcels,
// Collections and Deductions are picked out by name whatever their case or a "(£)" after them,
// and the rest are ignored. Several rows (one a day, say) are added together. Nothing is saved
// from here: a wrong file only fills the form, with a message saying what was read.
import { parseCsv } from '@/lib/csv-parse';
import { penceToPounds } from '@/core/money/money';
import type { StatementCheckFormInput } from './statement-check-form-schema';

export type ImportedField = 'paid' | 'stops' | 'parcels' | 'collections' | 'deductions';
type Imported = Partial<Pick<StatementCheckFormInput, ImportedField>>;

export type StatementCsvResult = { ok: true; values: Imported; rows: number } | { ok: false; error: string };

/** A statement is a few lines; anything bigger is the wrong file. */
export const MAX_STATEMENT_CSV_BYTES = 1_000_000;

const COLUMNS: Record<string, ImportedField> = {
  total: 'paid',
  paid: 'paid',
  'total paid': 'paid',
  'amount paid': 'paid',
  stops: 'stops',
  parcels: 'parcels',
  collections: 'collections',
  deductions: 'deductions',
};

const NAMES: Record<ImportedField, string> = { paid: 'Total', stops: 'Stops', parcels: 'Parcels', collections: 'Collections', deductions: 'Deductions' };

export const csvMessages = {
  tooBig: 'This file is too big to be a statement (over 1 MB).',
  unreadable: 'This file could not be read as CSV. Save the statement as CSV (comma separated) and try again.',
  noTotal: 'No column named Total or Paid. The first row must name the columns: Total (or Paid), Stops, Parcels, Collections, Deductions.',
  noRows: 'The file has no figures under its first row.',
} as const;

/** "Total (£)" → "total", "  Paid " → "paid". */
function columnName(header: string): string {
  return header
    .replace(/\(.*?\)/g, '')
    .replace(/£/g, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/**
 * Pence from "1,234.50", "£1234.50" or " 12 ". Statements often print deductions as negative
 * ("-195.00", "(195.00)"): for deductions the sign is dropped, as the column already says
 * the money is taken off. Null for anything else.
 */
function pence(cell: string, signed: boolean): number | null {
  let text = cell.trim().replace(/\s+/g, '');
  if (signed) text = text.replace(/^\((.*)\)$/, '$1').replace(/^-/, '').replace(/^£-/, '£');
  text = text.replace(/^£/, '');
  if (/,/.test(text) && !/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(text)) return null;
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text.replace(/,/g, ''));
  if (!match) return null;
  const value = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(value) ? value : null;
}

function count(cell: string): number | null {
  const text = cell.trim();
  if (!/^\d{1,3}(,\d{3})*$|^\d+$/.test(text)) return null;
  const value = Number(text.replace(/,/g, ''));
  return Number.isSafeInteger(value) ? value : null;
}

/** Reads a statement CSV's text (a leading byte order mark is allowed). */
export function readStatementCsv(text: string): StatementCsvResult {
  let records: string[][];
  try {
    records = parseCsv(text.replace(/^\uFEFF/, ''), { anyLineEnd: true });
  } catch {
    return { ok: false, error: csvMessages.unreadable };
  }
  const [header = [], ...rows] = records;
  const columns = new Map<ImportedField, number>();
  header.forEach((name, index) => {
    const field = COLUMNS[columnName(name)];
    if (field && !columns.has(field)) columns.set(field, index);
  });
  if (!columns.has('paid')) return { ok: false, error: csvMessages.noTotal };

  const data = rows.filter((row) => row.some((cell) => cell.trim() !== ''));
  if (data.length === 0) return { ok: false, error: csvMessages.noRows };

  const totals = new Map<ImportedField, number>();
  for (const [rowIndex, row] of data.entries()) {
    for (const [field, index] of columns) {
      const cell = row[index] ?? '';
      if (cell.trim() === '') continue;
      const isMoney = field === 'paid' || field === 'deductions';
      const value = isMoney ? pence(cell, field === 'deductions') : count(cell);
      if (value === null) {
        // Rows are numbered as a spreadsheet shows them: the header is row 1.
        const row = records.indexOf(data[rowIndex] as string[]) + 1;
        const expected = isMoney ? 'an amount in pounds, e.g. 1,234.50' : 'a whole number';
        return { ok: false, error: `Row ${row}: "${cell.trim()}" under ${NAMES[field]} is not ${expected}.` };
      }
      totals.set(field, (totals.get(field) ?? 0) + value);
    }
  }
  const values: Imported = {};
  for (const [field, total] of totals) values[field] = field === 'paid' || field === 'deductions' ? penceToPounds(total) : String(total);
  return { ok: true, values, rows: data.length };
}
