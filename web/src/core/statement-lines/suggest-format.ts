// The first mapping offered for a courier's file the driver has not mapped before: columns by
// their usual names, the date order the dates allow, and the type column's words that name a
// kind of line in the usual words. The driver checks and corrects it once; it is then saved
// as the courier's statement format and used as it is.
import type { DateOrder, LineType, SizeBand, TypeWord } from '@/sync/contract.generated';
import type { StatementFormatContent } from '@/sync/types';
import type { StatementTable } from './read-lines';

type Column = 'dateColumn' | 'amountColumn' | 'typeColumn' | 'bandColumn' | 'quantityColumn' | 'rateColumn' | 'referenceColumn';

// Checked in order, the first heading that matches wins; "Amount" before "Rate" so a "Rate"
// column is never taken for the amount.
const NAMES: readonly [Column, RegExp][] = [
  ['dateColumn', /^(work |delivery |service )?(date|day)\b/],
  ['amountColumn', /^(amount|total|paid|value|net)\b/],
  ['typeColumn', /^(type|service|item|category|line type|description)\b/],
  ['bandColumn', /^(size|band|size band|parcel size)\b/],
  ['quantityColumn', /^(qty|quantity|stops|count|items|units)\b/],
  ['rateColumn', /^(rate|price|unit price|per item)\b/],
  ['referenceColumn', /^(reference|ref|barcode|tracking|parcel|route|description|details)\b/],
];

// Words a courier's type column often uses, and the line each makes.
const USUAL_WORDS: readonly [RegExp, LineType, SizeBand | null][] = [
  [/^(delivery|deliveries|drop|stop|stops|multi-?drop)/, 'stop', null],
  [/^(parcel|packet)/, 'parcel', null],
  [/^collect/, 'collection', null],
  [/^(failed|return|returned|carded)/, 'failed', null],
  [/^(route rate|day rate|daily rate|route)/, 'dayRate', null],
  [/^(bonus|incentive|peak)/, 'bonus', null],
  [/^(adjust|arrears|correction)/, 'adjustment', null],
  [/(hire|charge|fee|deduct|fuel|insurance|fine|damage|uniform|scanner|rent)/, 'deduction', null],
];

function headingKey(heading: string): string {
  return heading.trim().toLowerCase().replace(/\s*\(.*\)\s*$/, '');
}

/** Which way round the file's dates are: day first unless a date can only be month first. */
function dateOrderOf(cells: readonly string[]): DateOrder {
  let monthFirstOnly = false;
  let dayFirstOnly = false;
  for (const cell of cells) {
    const text = cell.trim();
    if (/^\d{4}-/.test(text)) return 'yearMonthDay';
    const parts = /^(\d{1,2})[/.-](\d{1,2})[/.-]\d{2,4}$/.exec(text);
    if (!parts) continue;
    if (Number(parts[1]) > 12) dayFirstOnly = true;
    if (Number(parts[2]) > 12) monthFirstOnly = true;
  }
  return monthFirstOnly && !dayFirstOnly ? 'monthDayYear' : 'dayMonthYear';
}

/** A mapping to start from, for `courierId`'s file `table`. */
export function suggestFormat(table: StatementTable, courierId: string): StatementFormatContent {
  const format: StatementFormatContent = {
    courierId,
    source: 'csv',
    dateColumn: table.header[0] ?? 'Date',
    dateOrder: 'dayMonthYear',
    amountColumn: table.header.at(-1) ?? 'Amount',
    typeColumn: null,
    bandColumn: null,
    quantityColumn: null,
    rateColumn: null,
    referenceColumn: null,
    defaultType: 'stop',
    deductionsPositive: false,
    typeWords: [],
  };
  const taken = new Set<string>();
  for (const [column, pattern] of NAMES) {
    const heading = table.header.find((h) => !taken.has(h) && pattern.test(headingKey(h)));
    if (heading === undefined) continue;
    taken.add(heading);
    format[column] = heading;
  }
  const cells = (heading: string | null) => {
    const index = heading === null ? -1 : table.header.indexOf(heading);
    return index < 0 ? [] : table.rows.map(({ cells }) => cells[index] ?? '');
  };
  format.dateOrder = dateOrderOf(cells(format.dateColumn));
  if (format.bandColumn !== null) format.defaultType = 'parcel';
  const words = new Map<string, TypeWord>();
  for (const cell of cells(format.typeColumn)) {
    const word = cell.trim();
    if (word === '' || words.has(word.toLowerCase())) continue;
    const usual = USUAL_WORDS.find(([pattern]) => pattern.test(word.toLowerCase()));
    // A per-parcel file's "Delivery" rows are parcels, paid by band.
    const lineType = usual ? (usual[1] === 'stop' && format.bandColumn !== null ? 'parcel' : usual[1]) : format.defaultType;
    words.set(word.toLowerCase(), { word, lineType, band: usual?.[2] ?? null });
  }
  format.typeWords = [...words.values()];
  // Deductions written as plain sums (no minus) are taken off on import.
  const amounts = cells(format.amountColumn);
  const typeCells = cells(format.typeColumn);
  format.deductionsPositive = typeCells.some((cell, i) => words.get(cell.trim().toLowerCase())?.lineType === 'deduction' && !/[-−(]/.test(amounts[i] ?? ''));
  return format;
}
