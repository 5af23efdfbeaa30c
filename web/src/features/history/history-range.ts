// The history's date range: which days the list, summaries, chart and exports cover. Kept in
// the URL (?from=&to=) so a reload or a shared link shows the same days. Either end may be
// open ('' = no limit). Days are YYYY-MM-DD strings, so comparing them as text orders them.
import { addDays, weekStart } from '@/lib/week';

export interface DayRange {
  from: string;
  to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A range from the URL; anything that is not a day is treated as an open end. */
export function rangeFromParams(params: URLSearchParams): DayRange {
  const day = (value: string | null) => (value && DAY.test(value) ? value : '');
  return { from: day(params.get('from')), to: day(params.get('to')) };
}

export function rangeProblem({ from, to }: DayRange): string | null {
  return from && to && from > to ? 'The start date must be on or before the end date' : null;
}

export function inRange(day: string, { from, to }: DayRange): boolean {
  return (!from || day >= from) && (!to || day <= to);
}

export type PresetId = 'all' | 'this-week' | 'this-month' | 'last-3-months' | 'this-year';

export const PRESETS: { id: PresetId; label: string }[] = [
  { id: 'all', label: 'All time' },
  { id: 'this-week', label: 'This week' },
  { id: 'this-month', label: 'This month' },
  { id: 'last-3-months', label: 'Last 3 months' },
  { id: 'this-year', label: 'This year' },
];

/** The range a preset means on `today` (weeks start on Sunday, as everywhere in the app). */
export function presetRange(id: PresetId, today: string): DayRange {
  const month = today.slice(0, 7);
  switch (id) {
    case 'all':
      return { from: '', to: '' };
    case 'this-week':
      return { from: weekStart(today), to: addDays(weekStart(today), 6) };
    case 'this-month':
      return { from: `${month}-01`, to: today };
    case 'last-3-months': {
      const [year, monthNumber] = month.split('-').map(Number) as [number, number];
      const start = new Date(Date.UTC(year, monthNumber - 3, 1)).toISOString().slice(0, 10);
      return { from: start, to: today };
    }
    case 'this-year':
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
  }
}

/** Which preset a range is, if any, so the picker can show it as chosen. */
export function presetOf(range: DayRange, today: string): PresetId | null {
  return PRESETS.find(({ id }) => {
    const preset = presetRange(id, today);
    return preset.from === range.from && preset.to === range.to;
  })?.id ?? null;
}

/**
 * A closed range for file names and the export's header: open ends become the first and last
 * day that has data (or today when there is none).
 */
export function closedRange(range: DayRange, days: readonly string[], today: string): DayRange {
  let first = '';
  let last = '';
  for (const day of days) {
    if (!inRange(day, range)) continue;
    if (!first || day < first) first = day;
    if (!last || day > last) last = day;
  }
  return { from: range.from || first || today, to: range.to || last || today };
}
