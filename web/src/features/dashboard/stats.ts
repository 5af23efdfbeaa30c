// The dashboard's figures, from the entries on the device (PRODUCT.md "The four stat cards").
import { weekDays } from '@/lib/week';
import type { LocalEntry } from '@/sync/types';

export interface DayStops {
  date: string;
  stops: number;
  entries: number;
}

export interface DashboardStats {
  /** Stops since Sunday (this week's Sunday..Saturday). */
  weekStops: number;
  weekEntries: number;
  /** This week's stops / this week's entries, rounded; 0 with no entries. */
  dailyAverage: number;
  /** Sum of this week's entry totals, pence. */
  weekEarnings: number;
  allTimeStops: number;
  /** Sunday..Saturday of this week. */
  days: DayStops[];
}

/** `entries` are live (not deleted) entries; `today` is the local YYYY-MM-DD day. */
export function dashboardStats(entries: readonly LocalEntry[], today: string): DashboardStats {
  const days: DayStops[] = weekDays(today).map((date) => ({ date, stops: 0, entries: 0 }));
  const byDate = new Map(days.map((day) => [day.date, day]));
  let weekStops = 0;
  let weekEntries = 0;
  let weekEarnings = 0;
  let allTimeStops = 0;
  for (const entry of entries) {
    allTimeStops += entry.stops;
    const day = byDate.get(entry.date);
    if (!day) continue;
    day.stops += entry.stops;
    day.entries += 1;
    weekStops += entry.stops;
    weekEntries += 1;
    weekEarnings += entry.total;
  }
  const dailyAverage = weekEntries === 0 ? 0 : Math.round(weekStops / weekEntries);
  return { weekStops, weekEntries, dailyAverage, weekEarnings, allTimeStops, days };
}
