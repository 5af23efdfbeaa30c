// "31 January 2027" for a YYYY-MM-DD day: tax deadlines read better in words than as 31/01/2027.
// Pinned to UTC and fed Date.UTC, so the day never depends on the device's zone.
const longDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const shortDayMonth = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

const utc = (day: string) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
};

export function formatLongDate(day: string): string {
  return longDate.format(utc(day));
}

/** "6 Apr" */
export function formatDayMonth(day: string): string {
  return shortDayMonth.format(utc(day));
}
