// Sample figures for the landing page's showcase: one made-up week of a courier paid on the
// default tiers. Totals come from the real pay rules, so the previews never disagree with the app.
import { DEFAULT_TIERS, payFor } from '@/core/pay/pay';
import { entryFieldsBeforeCouriers } from '@/sync/default-courier';
import type { LocalEntry } from '@/sync/types';

export const SAMPLE_TODAY = '2025-03-21';

const week: { date: string; stops: number; extra: number; notes: string }[] = [
  { date: '2025-03-16', stops: 0, extra: 0, notes: '' },
  { date: '2025-03-17', stops: 118, extra: 0, notes: '' },
  { date: '2025-03-18', stops: 104, extra: 1250, notes: 'Bank holiday cover' },
  { date: '2025-03-19', stops: 96, extra: 0, notes: '' },
  { date: '2025-03-20', stops: 124, extra: 0, notes: 'Two parcels returned to depot' },
  { date: '2025-03-21', stops: 112, extra: 500, notes: 'Fuel top-up' },
  { date: '2025-03-22', stops: 0, extra: 0, notes: '' },
];

export const sampleEntries: LocalEntry[] = week
  .filter((day) => day.stops > 0)
  .map((day, index): LocalEntry => ({
    ...day,
    id: `sample-${index}`,
    total: payFor(DEFAULT_TIERS, day.stops) + day.extra,
    ...entryFieldsBeforeCouriers('sample'),
    createdAt: `${day.date}T18:00:00Z`,
    updatedAt: `${day.date}T18:00:00Z`,
    deleted: 0,
    syncState: 'synced',
    server: null,
  }))
  .reverse();

export const sampleWeek = { days: week.map(({ date, stops }) => ({ date, stops })) };

const weekStops = sampleEntries.reduce((sum, entry) => sum + entry.stops, 0);

export const sampleStats = {
  weekStops,
  dailyAverage: Math.round(weekStops / sampleEntries.length),
  weekEarnings: sampleEntries.reduce((sum, entry) => sum + entry.total, 0),
  allTimeStops: 18_432,
};

/** All-time figures for the stats preview. */
export const sampleAllTime = {
  entries: 171,
  stops: sampleStats.allTimeStops,
  earnings: 3_519_876,
  bestDay: { date: '2025-02-14', stops: 161 },
};
