// Money is integer pence everywhere; it becomes pounds only here, at the edge.
const pounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

export function formatPence(pence: number): string {
  return pounds.format(pence / 100);
}

const shortDate = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric' });

/** en-GB short form (dd/mm/yyyy). Accepts a YYYY-MM-DD day or any Date. */
export function formatShortDate(value: string | Date): string {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    // A bare day has no time zone: build it in local time so it never shifts by one.
    const [y, m, d] = value.split('-').map(Number) as [number, number, number];
    return shortDate.format(new Date(y, m - 1, d));
  }
  return shortDate.format(typeof value === 'string' ? new Date(value) : value);
}

const clockTime = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });

/** en-GB clock time (14:05) of an epoch-milliseconds instant, in the device's time zone. */
export function formatTime(ms: number): string {
  return clockTime.format(new Date(ms));
}
