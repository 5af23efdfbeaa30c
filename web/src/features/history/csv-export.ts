// The driver's entries as a CSV file for a spreadsheet (RFC 4180: CRLF line ends, fields with a
// comma, quote or line break quoted, quotes doubled). Money goes out as plain pounds with two
// decimals, so a spreadsheet reads it as a number rather than as text with a £ in it.
import { formatShortDate } from '@/lib/format';
import type { EntryContent } from '@/sync/types';
import { exportFileName } from './export-file-name';
import { penceToPounds } from '@/lib/money';

/** What a row needs; a LocalEntry fits. `createdAt` orders entries on the same day. */
export type CsvEntry = EntryContent & {
  createdAt?: string;
  deleted?: 0 | 1;
};

/** A courier as the file names it (a LocalCourier fits). */
export interface CsvCourier {
  id: string;
  name: string;
}

// Readable columns first; the ids last, for matching rows back to the JSON export.
export const CSV_HEADER = [
  'Date',
  'Courier',
  'Stops',
  'Parcels',
  'Collections',
  'Failed/returned',
  'Start',
  'Finish',
  'Extra (£)',
  'Total (£)',
  'Notes',
  'Courier ID',
  'Rate card ID',
] as const;

// Excel guesses the encoding of a CSV without one and turns "£" into "Â£".
const UTF8_BOM = '\uFEFF';
const CRLF = '\r\n';

// Cells a spreadsheet would run as a formula (or as DDE through a leading tab or CR), after
// OWASP's CSV injection advice: such text gets a leading ' so it shows as typed.
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** Free text typed by the driver, made safe to open in a spreadsheet. */
export function csvText(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

function byDateThenCreated(a: CsvEntry, b: CsvEntry): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  const [x, y] = [a.createdAt ?? '', b.createdAt ?? ''];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A count or time the driver may leave out: an empty cell, never a made-up 0. */
const optional = (value: number | string | null) => (value === null ? '' : String(value));

function csvRow(entry: CsvEntry, names: ReadonlyMap<string, string>): string[] {
  return [
    formatShortDate(entry.date),
    csvText(names.get(entry.courierId) ?? ''),
    String(entry.stops),
    optional(entry.parcels),
    optional(entry.collections),
    optional(entry.failed),
    optional(entry.startTime),
    optional(entry.finishTime),
    penceToPounds(entry.extra),
    penceToPounds(entry.total),
    csvText(entry.notes),
    entry.courierId,
    entry.rateCardId ?? '',
  ];
}

/**
 * The whole file: BOM, header, one row per entry oldest first, each line ending in CRLF.
 * Choosing the entries (date range) is the caller's; a deleted one is left out regardless.
 */
export function entriesToCsv(entries: readonly CsvEntry[], couriers: readonly CsvCourier[] = []): string {
  const names = new Map(couriers.map((courier) => [courier.id, courier.name]));
  const rows = entries
    .filter((entry) => entry.deleted !== 1)
    .sort(byDateThenCreated)
    .map((entry) => csvRow(entry, names));
  const lines = [[...CSV_HEADER], ...rows].map((fields) => fields.map(csvField).join(','));
  return UTF8_BOM + lines.map((line) => line + CRLF).join('');
}

export function csvFileName(from: string, to: string): string {
  return exportFileName(from, to, 'csv');
}
