// A CSV's rows as days: each row is read through the column mapping into an entry, or listed
// with its row number and every problem it has. The day's total is kept exactly as the file
// says (money never changes behind the driver's back), so the entry has no rate card unless our
// own export named one that is on the device.
import { MAX_EXTRA_PENCE, MAX_ITEMS, MAX_NOTES_CHARS, MAX_STOPS, MAX_TOTAL_PENCE } from '@/features/entries/entry-form-schema';
import { parseCsv } from '@/lib/csv-parse';
import { csvTextRead } from '@/lib/csv-write';
import type { EntryContent } from '@/sync/types';
import { detectDayOrder, impossibleDay, parseCount, parseDay, parseMoney, parseTime, type DayOrder, type DayReading } from './import-cells';
import { SEPARATE_SHIFT_MARK } from './csv-export';
import type { ColumnMapping, CsvLayout } from './import-csv-layouts';
import type { Candidate, ParsedFile, RowNote } from '@/core/import/import-plan';

export type Delimiter = ',' | ';' | '\t';

export interface CsvTable {
  header: string[];
  /** Each data row with its row number as a spreadsheet shows it (the header is row 1). */
  rows: { row: number; cells: string[] }[];
  /** What separates fields. A ;-file's amounts have a decimal comma (12,50). */
  delimiter: Delimiter;
}

/**
 * The header line's separator: whichever of , ; and tab it has most of outside quotes (a
 * spreadsheet in a comma-decimal locale saves ; and Excel's "Unicode text" saves tabs).
 */
export function detectDelimiter(text: string): Delimiter {
  const header = /^[^\r\n]*/.exec(text.replace(/"[^"]*"/g, ''))?.[0] ?? '';
  const count = (d: Delimiter) => header.split(d).length - 1;
  const candidates: Delimiter[] = [',', ';', '\t'];
  return candidates.reduce((best, d) => (count(d) > count(best) ? d : best));
}

/** The file as rows; a byte-order mark and blank lines (no data to lose) are skipped. Throws on a broken file. */
export function readCsvTable(text: string): CsvTable {
  const body = text.replace(/^\uFEFF/, '');
  const delimiter = detectDelimiter(body);
  const records = parseCsv(body, { anyLineEnd: true, delimiter });
  const [header, ...rest] = records;
  if (!header || header.every((cell) => cell.trim() === '')) throw new Error('The file is empty');
  return {
    header: header.map((cell) => cell.trim()),
    rows: rest.map((cells, i) => ({ row: i + 2, cells })).filter(({ cells }) => cells.some((cell) => cell.trim() !== '')),
    delimiter,
  };
}

/** How the mapped date column is read: our own export is always day first. */
export function dayReading(table: CsvTable, mapping: ColumnMapping, layout: CsvLayout): DayReading {
  const date = mapping.date;
  const detected = detectDayOrder(date === null ? [] : table.rows.map(({ cells }) => cells[date] ?? ''));
  return layout === 'ours' ? { ...detected, order: 'dmy' } : detected;
}

/** What a row is checked against: the device's couriers and rate cards. */
export interface CsvContext {
  couriers: readonly { id: string; name: string }[];
  /** Rate card id → its courier's id. */
  cards: ReadonlyMap<string, string>;
  /** Days with no courier column, or an empty cell, go to the default courier. */
  defaultCourierId: string;
}

// Our export puts a ' before text a spreadsheet would run as a formula (lib/csv-write.ts csvText); reading our file back takes it off.

/** How a row's dates and amounts are written. */
interface Dialect {
  order: DayOrder;
  decimalComma: boolean;
}

function rowToEntry(cells: readonly string[], mapping: ColumnMapping, layout: CsvLayout, context: CsvContext, { order, decimalComma }: Dialect): { entry: EntryContent } | { problems: string[] } {
  const problems: string[] = [];
  const cell = (index: number | null) => (index === null ? '' : (cells[index] ?? '').trim());
  const text = (index: number | null) => (layout === 'ours' ? csvTextRead(cell(index)) : cell(index));
  const optionalCount = (index: number | null, label: string) => {
    if (cell(index) === '') return null;
    const value = parseCount(cell(index), MAX_ITEMS);
    if (value === null) problems.push(`${label} must be a whole number from 0 to ${MAX_ITEMS}`);
    return value;
  };
  const optionalTime = (index: number | null, label: string) => {
    if (cell(index) === '') return null;
    const value = parseTime(cell(index));
    if (value === null) problems.push(`${label} must be a time like 08:30`);
    return value;
  };

  const date = parseDay(cell(mapping.date), order);
  const dateForm = order === 'dmy' ? 'dd/mm/yyyy' : 'mm/dd/yyyy';
  const impossible = date === null ? impossibleDay(cell(mapping.date), order) : null;
  if (date === null) {
    if (cell(mapping.date) === '') problems.push('Date is missing');
    else if (impossible) problems.push(`Date "${cell(mapping.date)}" does not exist: ${impossible}`);
    else problems.push(`Date "${cell(mapping.date)}" is not ${dateForm} or yyyy-mm-dd`);
  }
  const stops = parseCount(cell(mapping.stops), MAX_STOPS);
  if (stops === null) problems.push(`Stops must be a whole number from 0 to ${MAX_STOPS}`);
  const amount = (example: string) => (decimalComma ? example.replace('.', ',') : example);
  const extra = cell(mapping.extra) === '' ? 0 : parseMoney(cell(mapping.extra), decimalComma);
  if (extra === null || extra > MAX_EXTRA_PENCE) problems.push(`Extra must be an amount in pounds, like ${amount('12.50')}`);
  const total = cell(mapping.total) === '' ? null : parseMoney(cell(mapping.total), decimalComma);
  if (total === null || total > MAX_TOTAL_PENCE) problems.push(cell(mapping.total) === '' ? 'Total is missing' : `Total must be an amount in pounds, like ${amount('120.50')}`);
  const notes = text(mapping.notes);
  if (notes.length > MAX_NOTES_CHARS) problems.push(`Notes must be at most ${MAX_NOTES_CHARS} characters`);
  const parcels = optionalCount(mapping.parcels, 'Parcels');
  const collections = optionalCount(mapping.collections, 'Collections');
  const failed = optionalCount(mapping.failed, 'Failed/returned');
  const startTime = optionalTime(mapping.startTime, 'Start');
  const finishTime = optionalTime(mapping.finishTime, 'Finish');
  if ((startTime === null) !== (finishTime === null) && problems.every((p) => !p.startsWith('Start') && !p.startsWith('Finish'))) {
    problems.push('Start and finish go together: give both or neither');
  }

  // Our export names the courier by id too; a name is matched without case.
  const byId = context.couriers.find((courier) => courier.id === cell(mapping.courierId));
  const name = text(mapping.courier);
  const byName = context.couriers.find((courier) => courier.name.trim().toLowerCase() === name.toLowerCase());
  const courierId = byId?.id ?? (name === '' ? context.defaultCourierId : byName?.id);
  if (courierId === undefined) problems.push(`No courier named "${name}": add it under Settings → Couriers first`);
  const cardId = cell(mapping.rateCardId);
  const rateCardId = cardId !== '' && courierId !== undefined && context.cards.get(cardId) === courierId ? cardId : null;

  // Only our own export marks a separate shift; any other file's second row for a day is a duplicate.
  const separateShift = layout === 'ours' && cell(mapping.separateShift) === SEPARATE_SHIFT_MARK;

  if (problems.length > 0 || date === null || stops === null || extra === null || total === null || courierId === undefined) return { problems };
  return { entry: { date, stops, extra, total, notes, courierId, rateCardId, parcels, collections, failed, startTime, finishTime, separateShift, bands: null } };
}

/** Every data row: an entry to plan, or an invalid row with all of its problems. Dates are read in `order` (dayReading's by default). */
export function csvEntries(table: CsvTable, mapping: ColumnMapping, layout: CsvLayout, context: CsvContext, order: DayOrder = dayReading(table, mapping, layout).order): ParsedFile {
  const candidates: Candidate[] = [];
  const invalid: RowNote[] = [];
  const dialect = { order, decimalComma: table.delimiter === ';' };
  for (const { row, cells } of table.rows) {
    const result = rowToEntry(cells, mapping, layout, context, dialect);
    if ('entry' in result) candidates.push({ kind: 'entry', id: null, content: result.entry, place: `Row ${row}` });
    else invalid.push({ place: `Row ${row}`, reason: result.problems.join('; ') });
  }
  return { candidates, invalid };
}
