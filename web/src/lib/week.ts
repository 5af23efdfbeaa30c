// Calendar days as YYYY-MM-DD strings in the driver's own time zone. Day arithmetic runs on
// Date.UTC values used purely as a calendar (UTC has no daylight saving), so a day is always
// exactly one day and BST changes never shift a date.

const DAY_MS = 86_400_000;

/** The local calendar day of `date` (not its UTC day: 00:30 BST is still "today"). */
export function localDay(date: Date): string {
  return [date.getFullYear(), date.getMonth() + 1, date.getDate()].map((n, i) => String(n).padStart(i === 0 ? 4 : 2, '0')).join('-');
}

function toUtcMs(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
}

function fromUtcMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return fromUtcMs(toUtcMs(day) + days * DAY_MS);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(day: string): number {
  return new Date(toUtcMs(day)).getUTCDay();
}

/** The Sunday on or before `day` (spec: the week starts on Sunday). */
export function weekStart(day: string): string {
  return addDays(day, -weekdayOf(day));
}

/** The seven days Sunday..Saturday of the week holding `day`. */
export function weekDays(day: string): string[] {
  const start = weekStart(day);
  return Array.from({ length: 7 }, (_, i) => addDays(start, i));
}
