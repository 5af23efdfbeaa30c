// Money is integer pence everywhere; it becomes pounds only here, at the edge.
import { plural } from './plural';
import { weekdayOf } from './week';

const pounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

/** Integer pence as £; a negative amount (net pay after deductions) with a true minus sign: −£2.00. */
export function formatPence(pence: number): string {
  // `+ 0` turns -0 (nothing deducted, negated) into 0, which Intl would show as "-£0.00".
  return pence < 0 ? `−${pounds.format(-pence / 100)}` : pounds.format(pence / 100 + 0);
}

const wholeNumber = new Intl.NumberFormat('en-GB');

/** A count grouped the British way: "3,650". */
export function formatCount(n: number): string {
  return wholeNumber.format(n);
}

/** A count with its noun, grouped the British way: "1 day", "9,300 business miles". */
export function countWords(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${plural(n, one, many)}`;
}

const shortDate = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric' });

/** "a", "a and b", "a, b and c". */
export function listText(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** en-GB short form (dd/mm/yyyy). Accepts a YYYY-MM-DD day or any Date. */
export function formatShortDate(value: string | Date): string {
  const day = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  // A bare day has no time zone, so it is rearranged rather than turned into a Date: the
  // formatter keeps the zone it was built in, and a device that changes zone while the app is
  // open would otherwise show local midnight as the day before.
  if (day) return `${day[3]}/${day[2]}/${day[1]}`;
  return shortDate.format(typeof value === 'string' ? new Date(value) : value);
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** A YYYY-MM-DD day with its weekday: "Thu 27/11/2025" (weekdays from lib/week, zone-free). */
export function formatWeekdayDate(day: string): string {
  return `${WEEKDAYS[weekdayOf(day)]} ${formatShortDate(day)}`;
}

// Pinned to UTC and fed Date.UTC, so the month never depends on the device's zone.
const monthYear = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A YYYY-MM month (or the month of a YYYY-MM-DD day) in words: "October 2024". */
export function formatMonthYear(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return monthYear.format(Date.UTC(y, m - 1, 1));
}

const clockTime = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });

/** en-GB clock time (14:05) of an epoch-milliseconds instant, in the device's time zone. */
export function formatTime(ms: number): string {
  return clockTime.format(new Date(ms));
}

/** A duration in minutes as "7h 30m" ("45m" under an hour, "8h" on the hour). */
export function formatMinutes(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest}m`;
  return rest === 0 ? `${hours}h` : `${hours}h ${rest}m`;
}
