// Which column of a CSV holds what. Two layouts are known by their header row (our own CSV
// export, and the original app's Date, Stops, Extra, Total); any other file gets a guess the
// driver corrects in the mapping step.
import { CSV_HEADER } from './csv-export';

/** What a column can be. The two ids only come from our own export. */
export type CsvField =
  | 'date'
  | 'courier'
  | 'stops'
  | 'parcels'
  | 'collections'
  | 'failed'
  | 'startTime'
  | 'finishTime'
  | 'extra'
  | 'total'
  | 'notes'
  | 'separateShift'
  | 'courierId'
  | 'rateCardId';

/** Column index per field, null when the file has no such column. */
export type ColumnMapping = Record<CsvField, number | null>;

export type CsvLayout = 'ours' | 'original' | 'generic';

/** The fields a driver maps by hand, in the order the mapping step shows them. */
export const MAPPABLE_FIELDS: readonly { field: CsvField; label: string; required: boolean }[] = [
  { field: 'date', label: 'Date', required: true },
  { field: 'stops', label: 'Stops', required: true },
  { field: 'total', label: 'Total (£)', required: true },
  { field: 'extra', label: 'Extra (£)', required: false },
  { field: 'courier', label: 'Courier', required: false },
  { field: 'parcels', label: 'Parcels', required: false },
  { field: 'collections', label: 'Collections', required: false },
  { field: 'failed', label: 'Failed/returned', required: false },
  { field: 'startTime', label: 'Start time', required: false },
  { field: 'finishTime', label: 'Finish time', required: false },
  { field: 'notes', label: 'Notes', required: false },
];

export function emptyMapping(): ColumnMapping {
  return {
    date: null,
    courier: null,
    stops: null,
    parcels: null,
    collections: null,
    failed: null,
    startTime: null,
    finishTime: null,
    extra: null,
    total: null,
    notes: null,
    separateShift: null,
    courierId: null,
    rateCardId: null,
  };
}

// Our export's columns, by the field each one is; a file from before shifts has no such column.
const OUR_FIELDS: readonly CsvField[] = ['date', 'courier', 'stops', 'parcels', 'collections', 'failed', 'startTime', 'finishTime', 'extra', 'total', 'notes', 'separateShift', 'courierId', 'rateCardId'];
const OUR_FIELDS_BEFORE_SHIFTS = OUR_FIELDS.filter((field) => field !== 'separateShift');
const HEADER_BEFORE_SHIFTS = CSV_HEADER.filter((name) => name !== 'Separate shift');
const ORIGINAL_HEADER = ['date', 'stops', 'extra', 'total'];

// Header words a spreadsheet commonly uses for each field, compared without case, spaces or symbols.
const SYNONYMS: Partial<Record<CsvField, readonly string[]>> = {
  date: ['date', 'day', 'workday', 'workdate', 'deliverydate'],
  courier: ['courier', 'company', 'client', 'network'],
  stops: ['stops', 'drops', 'deliveries', 'stopcount'],
  parcels: ['parcels', 'packages', 'items'],
  collections: ['collections', 'pickups'],
  failed: ['failed', 'failedreturned', 'returns', 'returned'],
  startTime: ['start', 'starttime', 'begin'],
  finishTime: ['finish', 'finishtime', 'end', 'endtime'],
  extra: ['extra', 'extras', 'bonus'],
  total: ['total', 'totalpay', 'pay', 'paid', 'earnings', 'amount'],
  notes: ['notes', 'note', 'comments', 'comment'],
};

// "Paid (GBP)" and "Total (£)" name the same field as "paid" and "total".
const simplified = (cell: string) => cell.trim().toLowerCase().replace(/gbp|£|[\s_()/.-]/g, '');

export function detectLayout(header: readonly string[]): CsvLayout {
  const cells = header.map((cell) => cell.trim());
  for (const ours of [CSV_HEADER, HEADER_BEFORE_SHIFTS]) if (cells.length === ours.length && ours.every((name, i) => cells[i] === name)) return 'ours';
  if (cells.length === ORIGINAL_HEADER.length && cells.every((cell, i) => cell.toLowerCase() === ORIGINAL_HEADER[i])) return 'original';
  return 'generic';
}

/** The mapping a known layout has; for a generic file, the columns whose header names a field. */
export function mappingFor(layout: CsvLayout, header: readonly string[]): ColumnMapping {
  const mapping = emptyMapping();
  if (layout === 'ours') {
    (header.length === OUR_FIELDS.length ? OUR_FIELDS : OUR_FIELDS_BEFORE_SHIFTS).forEach((field, i) => (mapping[field] = i));
    return mapping;
  }
  if (layout === 'original') return { ...mapping, date: 0, stops: 1, extra: 2, total: 3 };
  const taken = new Set<number>();
  for (const { field } of MAPPABLE_FIELDS) {
    const index = header.findIndex((cell, i) => !taken.has(i) && (SYNONYMS[field] ?? []).includes(simplified(cell)));
    if (index >= 0) {
      mapping[field] = index;
      taken.add(index);
    }
  }
  return mapping;
}

/** What stops the mapping from being used: a required field with no column, or one column used twice. */
export function mappingProblem(mapping: ColumnMapping): string | null {
  const missing = MAPPABLE_FIELDS.filter(({ field, required }) => required && mapping[field] === null).map(({ label }) => label);
  if (missing.length > 0) return `Choose a column for ${missing.join(', ')}`;
  const used = Object.values(mapping).filter((index): index is number => index !== null);
  if (new Set(used).size !== used.length) return 'Each column can be used for one field only';
  return null;
}
