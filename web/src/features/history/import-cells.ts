// Reading one spreadsheet cell as a day, money, a count or a time. Each returns null for what
// it cannot read, and the row's reader says which column and why; nothing is guessed.
import { parsePounds } from '@/core/money/money';

function realDay(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Which part of a 01/02/2026 date is the day: the UK's day first, or the US's month first. */
export type DayOrder = 'dmy' | 'mdy';

const SLASH_DAY = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;

/**
 * yyyy-mm-dd, or a date with the year last (also with - or . and 1-digit parts), read day first
 * (31/01/2026, the default) or month first (01/31/2026) as `order` says. The year's place tells
 * ISO from the others; which of those it is, the file as a whole decides (detectDayOrder).
 */
export function parseDay(cell: string, order: DayOrder = 'dmy'): string | null {
  const text = cell.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (iso) return realDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const parts = SLASH_DAY.exec(text);
  if (!parts) return null;
  const [first, second, year] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  return order === 'dmy' ? realDay(year, second, first) : realDay(year, first, second);
}

const monthName = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * Why a date written in a form the reading accepts names no real day ("November 2026 has 30
 * days"), or null when it is a real day or not in such a form at all (then the form is what to
 * fix). A month part over 12 is left to the form: the file is likelier read the wrong way round.
 */
export function impossibleDay(cell: string, order: DayOrder = 'dmy'): string | null {
  const text = cell.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  const parts = iso ? null : SLASH_DAY.exec(text);
  let year: number, month: number, day: number;
  if (iso) [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (parts) {
    const [first, second] = [Number(parts[1]), Number(parts[2])];
    year = Number(parts[3]);
    [day, month] = order === 'dmy' ? [first, second] : [second, first];
  } else return null;
  if (month < 1 || month > 12 || realDay(year, month, day) !== null) return null;
  if (day === 0) return 'a month has no day 0';
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${monthName.format(Date.UTC(year, month - 1, 1))} has ${days} days`;
}

/** How a file's dates are read, and whether the file itself settles it. */
export interface DayReading {
  order: DayOrder;
  /** Some date can be read only one way (a part over 12); else both readings are possible and day first is a default. */
  settled: boolean;
  /** The file has dates with the year last at all (ISO ones need no reading). */
  yearLast: boolean;
}

/**
 * Day first unless a date can only be month first (its second part is over 12, like
 * 01/31/2026) and none can only be day first. A file with both kinds is read day first; its
 * month-first dates are then listed as invalid rows, never guessed one by one.
 */
export function detectDayOrder(cells: readonly string[]): DayReading {
  let dayFirstOnly = false;
  let monthFirstOnly = false;
  let yearLast = false;
  for (const cell of cells) {
    const parts = SLASH_DAY.exec(cell.trim());
    if (!parts) continue;
    yearLast = true;
    if (Number(parts[1]) > 12) dayFirstOnly = true;
    if (Number(parts[2]) > 12) monthFirstOnly = true;
  }
  const order = monthFirstOnly && !dayFirstOnly ? 'mdy' : 'dmy';
  return { order, settled: dayFirstOnly || monthFirstOnly, yearLast };
}

/**
 * Pounds as exact pence: "£1,234.50", "12.5", " 7 ". With `decimalComma` (a ;-separated file,
 * as a spreadsheet set to a comma-decimal locale saves it) "12,50" and "1.234,50" too. A
 * separator only counts as thousands between groups of three digits, so "12,50" in an ordinary
 * file is refused, never read as £1,250. A sign or more than two decimals → null (money is
 * never rounded).
 */
export function parseMoney(cell: string, decimalComma = false): number | null {
  const text = cell.trim().replace(/^£/, '');
  const [thousands, decimal] = decimalComma ? ['.', ','] : [',', '.'];
  const grouped = new RegExp(`^\\d{1,3}(\\${thousands}\\d{3})+(\\${decimal}\\d*)?$`);
  const whole = grouped.test(text) ? text.replaceAll(thousands, '') : text;
  // A ;-file's cell with no comma may still use a decimal point ("12.50").
  if (decimalComma && whole.includes(',')) return parsePounds(whole.replace(',', '.'));
  if (whole.includes(',')) return null;
  return parsePounds(whole);
}

/** A whole number from 0 to max. */
export function parseCount(cell: string, max: number): number | null {
  const text = cell.trim();
  if (!/^\d+$/.test(text)) return null;
  const value = Number(text);
  return value <= max ? value : null;
}

/** HH:MM (or H:MM), 24-hour. */
export function parseTime(cell: string): string | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(cell.trim());
  if (!match) return null;
  const [hours, minutes] = [Number(match[1]), Number(match[2])];
  return hours < 24 && minutes < 60 ? `${String(hours).padStart(2, '0')}:${match[2]}` : null;
}
