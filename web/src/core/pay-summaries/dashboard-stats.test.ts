import { describe, expect, it } from 'vitest';
import { makeEntry } from '@/testing/sync-handle';
import { dashboardStats } from './dashboard-stats';

describe('dashboardStats', () => {
  it('counts this week from Sunday and all time from everything', () => {
    // Friday 21 March 2025: the week is Sunday 16 .. Saturday 22.
    const entries = [
      makeEntry({ date: '2025-03-15', stops: 500, total: 50_000 }), // Saturday before: last week
      makeEntry({ date: '2025-03-16', stops: 100, total: 19_800 }), // Sunday: this week
      makeEntry({ date: '2025-03-18', stops: 120, total: 23_408 }),
      makeEntry({ date: '2025-03-21', stops: 7, extra: 250, total: 1_636 }),
      makeEntry({ date: '2025-03-23', stops: 40, total: 7_920 }), // next Sunday: next week
    ];
    const stats = dashboardStats(entries, '2025-03-21');
    expect(stats.weekStops).toBe(227);
    expect(stats.weekEntries).toBe(3);
    expect(stats.dailyAverage).toBe(76); // 227 / 3 days with stops = 75.67
    expect(stats.weekEarnings).toBe(19_800 + 23_408 + 1_636);
    expect(stats.allTimeStops).toBe(767);
    expect(stats.days.map((d) => [d.date, d.stops])).toEqual([
      ['2025-03-16', 100],
      ['2025-03-17', 0],
      ['2025-03-18', 120],
      ['2025-03-19', 0],
      ['2025-03-20', 0],
      ['2025-03-21', 7],
      ['2025-03-22', 0],
    ]);
  });

  it('starts the week on the day itself on a Sunday', () => {
    const entries = [makeEntry({ date: '2025-03-22', stops: 90 }), makeEntry({ date: '2025-03-23', stops: 10 })];
    expect(dashboardStats(entries, '2025-03-23').weekStops).toBe(10);
  });

  it('rounds the daily average to the nearest stop (halves up)', () => {
    const day = (date: string, stops: number) => makeEntry({ date, stops });
    expect(dashboardStats([day('2025-03-17', 100), day('2025-03-18', 101)], '2025-03-21').dailyAverage).toBe(101); // 100.5
    expect(dashboardStats([day('2025-03-17', 100), day('2025-03-18', 100), day('2025-03-19', 101)], '2025-03-21').dailyAverage).toBe(100); // 100.33
    expect(dashboardStats([], '2025-03-21').dailyAverage).toBe(0);
  });

  it('divides by days with stops, not entries: two shifts on one day are one day', () => {
    const entries = [makeEntry({ date: '2025-03-17', stops: 60 }), makeEntry({ date: '2025-03-17', stops: 40, separateShift: true })];
    const stats = dashboardStats(entries, '2025-03-21');
    expect(stats.dailyAverage).toBe(100);
    expect(stats.weekDays).toBe(1);
    expect(stats.days[1]).toEqual({ date: '2025-03-17', stops: 100, parcels: 0, entries: 2 });
  });

  it('counts a day paid per parcel beside the stops, never halving the stops average', () => {
    // A DPD week paid per stop, and an Evri Sunday paid per parcel with no stops.
    const dpd = { id: 'dpd-card', perParcel: null };
    const evri = { id: 'evri-card', perParcel: 45 };
    const cards = [dpd, evri].map((card) => ({ ...card, courierId: 'x', validFrom: '2000-01-01', label: '', perStop: null, parcelCapPerStop: null, perCollection: null, perFailed: null, dayRate: null, hourly: null, peaks: [], bandRates: null }));
    const entries = [
      makeEntry({ date: '2025-03-16', stops: 0, parcels: 140, total: 6_300, rateCardId: 'evri-card' }),
      makeEntry({ date: '2025-03-17', stops: 128, parcels: 150, total: 24_444, rateCardId: 'dpd-card' }), // parcels noted on a per-stop day
      makeEntry({ date: '2025-03-18', stops: 120, total: 23_260, rateCardId: 'dpd-card' }),
    ];
    const stats = dashboardStats(entries, '2025-03-21', cards);
    expect([stats.weekStops, stats.weekParcels, stats.weekDays, stats.stopDays, stats.parcelDays]).toEqual([248, 140, 3, 2, 1]);
    expect(stats.dailyAverage).toBe(124); // 248 / 2 days with stops, not / 3
    expect(stats.dailyParcels).toBe(140);
    expect(stats.weekEarnings).toBe(6_300 + 24_444 + 23_260);
    expect([stats.allTimeStops, stats.allTimeParcels]).toEqual([248, 140]);
    expect(stats.days[0]).toEqual({ date: '2025-03-16', stops: 0, parcels: 140, entries: 1 });
    expect(stats.days[1]).toEqual({ date: '2025-03-17', stops: 128, parcels: 0, entries: 1 });
  });

  it('without the card that priced a day, counts its parcels only when it has no stops', () => {
    const entries = [makeEntry({ date: '2025-03-16', stops: 0, parcels: 90, rateCardId: null }), makeEntry({ date: '2025-03-17', stops: 10, parcels: 30, rateCardId: 'gone' })];
    expect(dashboardStats(entries, '2025-03-21').weekParcels).toBe(90);
  });

  it('spans a year end: Wednesday 1 January 2025 is in the week of Sunday 29 December', () => {
    const entries = [
      makeEntry({ date: '2024-12-28', stops: 1 }),
      makeEntry({ date: '2024-12-29', stops: 10 }),
      makeEntry({ date: '2024-12-31', stops: 20 }),
      makeEntry({ date: '2025-01-01', stops: 30 }),
    ];
    const stats = dashboardStats(entries, '2025-01-01');
    expect(stats.weekStops).toBe(60);
    expect(stats.days[0]?.date).toBe('2024-12-29');
    expect(stats.days[6]?.date).toBe('2025-01-04');
  });

  it('spans a month end', () => {
    const entries = [makeEntry({ date: '2025-03-30', stops: 5 }), makeEntry({ date: '2025-04-02', stops: 6 })];
    expect(dashboardStats(entries, '2025-04-02').weekStops).toBe(11);
  });
});
