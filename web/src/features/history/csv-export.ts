// The driver's entries as a CSV file for a spreadsheet (written by lib/csv-write.ts). Money goes
// out as plain pounds with two decimals, so a spreadsheet reads it as a number rather than as
// text with a £ in it.
import { csvFile, csvText } from '@/lib/csv-write';
import { formatShortDate } from '@/lib/format';
import type { EntryContent } from '@/sync/types';
import { exportFileName } from './export-file-name';
import { penceToPounds } from '@/core/money/money';

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
// "Separate shift" came later (issue 25): a file without it is still ours (import-csv-layouts.ts).
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
  'Separate shift',
  'Courier ID',
  'Rate card ID',
] as const;

/** How the file says a row is a deliberate extra shift on a day that already has one. */
export const SEPARATE_SHIFT_MARK = 'yes';

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
    entry.separateShift ? SEPARATE_SHIFT_MARK : '',
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
  return csvFile([[...CSV_HEADER], ...rows]);
}

export function csvFileName(from: string, to: string): string {
  return exportFileName(from, to, 'csv');
}
