// Reading one spreadsheet cell as a day, money, a count or a time. Each returns null for what
// it cannot read, and the row's reader says which column and why; nothing is guessed.
import { parsePounds } from '@/lib/money';

function realDay(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * yyyy-mm-dd, or dd/mm/yyyy as a UK spreadsheet writes it (also with - or . and 1-digit day or
 * month). The year's place tells the two apart, so no format has to be chosen. A US mm/dd date
 * reads as dd/mm: the import says which formats it takes.
 */
export function parseDay(cell: string): string | null {
  const text = cell.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (iso) return realDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const uk = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  if (uk) return realDay(Number(uk[3]), Number(uk[2]), Number(uk[1]));
  return null;
}

/** "£1,234.50", "12.5", " 7 " → pence; a sign or more than two decimals → null (money is never rounded). */
export function parseMoney(cell: string): number | null {
  return parsePounds(cell.trim().replace(/^£/, '').replaceAll(',', ''));
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
