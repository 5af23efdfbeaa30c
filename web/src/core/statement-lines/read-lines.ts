// A courier's statement file read into statement lines through the courier's saved format (the
// column mapping the driver confirmed once): each row becomes one line, or a problem naming the
// row and the column. Nothing is guessed: a date, an amount or a count the format cannot read is
// a problem, never a zero. The rows' identities (line-identity.ts) are what make a second import
// of the same file add nothing.
import { parseCsv } from '@/lib/csv-parse';
import { parsePounds } from '@/core/money/money';
import { SIZE_BANDS } from '@/core/pay/size-bands';
import { BOUNDS, type DateOrder, type LineType, type SizeBand } from '@/sync/contract.generated';
import type { StatementFormatContent, StatementLineContent } from '@/sync/types';

/** The fields a format may fill (everything a line has but its ids and key). */
export type ReadLine = Pick<StatementLineContent, 'date' | 'lineType' | 'band' | 'quantity' | 'rate' | 'amount' | 'reference'>;

export interface StatementTable {
  header: string[];
  /** Each row's cells with its line number in the file (the header is line 1). */
  rows: { row: number; cells: string[] }[];
}

export interface RowProblem {
  row: number;
  problem: string;
}

/** A read row: its line and the cells it came from (its identity). */
export interface ReadRow {
  row: number;
  cells: string[];
  line: ReadLine;
}

/** A statement is a few thousand lines at most; anything bigger is the wrong file. */
export const MAX_STATEMENT_BYTES = 2_000_000;

export const LINE_TYPES: readonly LineType[] = ['stop', 'parcel', 'collection', 'failed', 'dayRate', 'bonus', 'deduction', 'adjustment'];
export { SIZE_BANDS };

const DELIMITERS = [',', ';', '\t'] as const;

/** The file as a table: the separator is whichever of , ; and tab the header has most of. Throws on a broken file. */
export function readStatementTable(text: string): StatementTable {
  const body = text.replace(/^\uFEFF/, '');
  const headerLine = /^[^\r\n]*/.exec(body.replace(/"[^"]*"/g, ''))?.[0] ?? '';
  const delimiter = DELIMITERS.reduce((best, d) => (headerLine.split(d).length > headerLine.split(best).length ? d : best));
  const [header, ...rest] = parseCsv(body, { anyLineEnd: true, delimiter });
  if (!header || header.every((cell) => cell.trim() === '')) throw new Error('The file is empty');
  return {
    header: header.map((cell) => cell.trim()),
    rows: rest.map((cells, i) => ({ row: i + 2, cells })).filter(({ cells }) => cells.some((cell) => cell.trim() !== '')),
  };
}

function realDay(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  // The years a stored day may be in (the contract's): a day outside them could never sync.
  if (year < BOUNDS.day.minYear || year > BOUNDS.day.maxYear || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A date in the format's order, its parts separated by / - or . (an ISO date reads in any order). */
export function readDate(cell: string, order: DateOrder): string | null {
  const text = cell.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (iso) return realDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const parts = /^(\d{1,4})[/.-](\d{1,2})[/.-](\d{1,4})$/.exec(text);
  if (!parts) return null;
  const [a, b, c] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (order === 'yearMonthDay') return realDay(a, b, c);
  const year = c < 100 ? 2000 + c : c;
  return order === 'dayMonthYear' ? realDay(year, b, a) : realDay(year, a, b);
}

/**
 * Money as exact pence, with its sign: "£1,234.50", "-2.50", "−2.50", "(2.50)" (an accountant's
 * minus), "2.50 CR". More than two decimals → null: money is never rounded.
 */
export function readMoney(cell: string): number | null {
  let text = cell.trim().replace(/\s+/g, '');
  let negative = false;
  if (/^\(.*\)$/.test(text)) [negative, text] = [true, text.slice(1, -1)];
  if (/^[-−]/.test(text)) [negative, text] = [!negative, text.slice(1)];
  text = text.replace(/^£/, '');
  if (/^[-−]/.test(text)) [negative, text] = [!negative, text.slice(1)];
  if (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(text)) text = text.replaceAll(',', '');
  const pence = parsePounds(text);
  if (pence === null) return null;
  return negative && pence !== 0 ? -pence : pence;
}

function columnIndex(header: readonly string[], name: string | null): number | null {
  if (name === null) return null;
  const wanted = name.trim().toLowerCase();
  const index = header.findIndex((cell) => cell.trim().toLowerCase() === wanted);
  return index < 0 ? -1 : index;
}

/** The columns the format names that the file does not have: the format is for another layout. */
export function missingColumns(format: StatementFormatContent, header: readonly string[]): string[] {
  const named = [format.dateColumn, format.amountColumn, format.typeColumn, format.bandColumn, format.quantityColumn, format.rateColumn, format.referenceColumn];
  return named.filter((name): name is string => name !== null && columnIndex(header, name) === -1);
}

/** The line type and band a type cell names: its word in the format, else a type or band by its own name, else the default. */
function typeOf(format: StatementFormatContent, cell: string | null): { lineType: LineType; band: SizeBand | null } | null {
  if (cell === null || cell.trim() === '') return { lineType: format.defaultType, band: null };
  const text = cell.trim().toLowerCase();
  const word = format.typeWords.find((w) => w.word.toLowerCase() === text);
  if (word) return { lineType: word.lineType, band: word.band };
  const own = LINE_TYPES.find((t) => t.toLowerCase() === text);
  return own ? { lineType: own, band: null } : null;
}

function bandOf(cell: string): SizeBand | null | undefined {
  const text = cell.trim().toLowerCase().replace(/[\s_-]/g, '');
  if (text === '') return null;
  return SIZE_BANDS.find((band) => band.toLowerCase() === text || (band === 'extraLarge' && text === 'xl'));
}

/** Every row as a line, or why it is not one. */
export function readLines(table: StatementTable, format: StatementFormatContent): { rows: ReadRow[]; problems: RowProblem[] } {
  const at = (name: string | null) => columnIndex(table.header, name);
  const columns = {
    date: at(format.dateColumn),
    amount: at(format.amountColumn),
    type: at(format.typeColumn),
    band: at(format.bandColumn),
    quantity: at(format.quantityColumn),
    rate: at(format.rateColumn),
    reference: at(format.referenceColumn),
  };
  const rows: ReadRow[] = [];
  const problems: RowProblem[] = [];
  for (const { row, cells } of table.rows) {
    const cell = (index: number | null) => (index === null || index < 0 ? null : (cells[index] ?? ''));
    const why: string[] = [];
    const date = readDate(cell(columns.date) ?? '', format.dateOrder);
    if (date === null) why.push(`${format.dateColumn} "${cell(columns.date) ?? ''}" is not a date`);
    // A line's bounds are the contract's: a row past them is said here, not parked after a push.
    const { maxQuantity, maxRatePence, maxAmountPence, maxReferenceChars } = BOUNDS.statementLine;
    let amount = readMoney(cell(columns.amount) ?? '');
    if (amount === null) why.push(`${format.amountColumn} "${cell(columns.amount) ?? ''}" is not an amount`);
    else if (Math.abs(amount) > maxAmountPence) why.push(`${format.amountColumn} "${cell(columns.amount) ?? ''}" is more than a line can hold`);
    const typed = typeOf(format, cell(columns.type));
    if (typed === null) why.push(`${format.typeColumn ?? 'Type'} "${cell(columns.type) ?? ''}" is not a type this format names`);
    let band = typed?.band ?? null;
    const bandCell = cell(columns.band);
    if (bandCell !== null && typed?.lineType === 'parcel') {
      const read = bandOf(bandCell);
      if (read === undefined) why.push(`${format.bandColumn ?? 'Band'} "${bandCell}" is not a size band`);
      else if (read !== null) band = read;
    }
    const quantityCell = cell(columns.quantity);
    const quantity = quantityCell === null || quantityCell.trim() === '' ? 1 : /^\d+$/.test(quantityCell.trim()) ? Number(quantityCell.trim()) : null;
    if (quantity === null) why.push(`${format.quantityColumn ?? 'Quantity'} "${quantityCell ?? ''}" is not a whole number`);
    else if (quantity > maxQuantity) why.push(`${format.quantityColumn ?? 'Quantity'} "${quantityCell ?? ''}" is more than ${maxQuantity}`);
    const rateCell = cell(columns.rate);
    const rate = rateCell === null || rateCell.trim() === '' ? null : readMoney(rateCell);
    if (rateCell !== null && rateCell.trim() !== '' && (rate === null || rate < 0 || rate > maxRatePence)) why.push(`${format.rateColumn ?? 'Rate'} "${rateCell}" is not a rate`);
    if (amount !== null && typed?.lineType === 'deduction') {
      // Taken off, whichever way the file writes it.
      amount = format.deductionsPositive ? -Math.abs(amount) : amount;
      if (amount > 0) why.push(`The deduction ${format.amountColumn} "${cell(columns.amount) ?? ''}" would pay money`);
    } else if (amount !== null && amount < 0 && typed && typed.lineType !== 'adjustment') {
      why.push(`${format.amountColumn} "${cell(columns.amount) ?? ''}" is below zero on a ${typed.lineType} line`);
    }
    if (why.length > 0 || date === null || amount === null || typed === null || quantity === null) {
      problems.push({ row, problem: why.join('; ') });
      continue;
    }
    // Cut to the most a line keeps, in characters as the server counts them (never half an emoji).
    const reference = [...(cell(columns.reference) ?? '').trim()].slice(0, maxReferenceChars).join('');
    rows.push({ row, cells, line: { date, lineType: typed.lineType, band: typed.lineType === 'parcel' ? band : null, quantity, rate, amount, reference } });
  }
  return { rows, problems };
}
