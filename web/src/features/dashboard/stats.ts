// The dashboard's figures, from the entries on the device (PRODUCT.md "The four stat cards").
import { paySummary, type PayDay, type PayDeduction, type PaySummary } from '@/lib/pay-summary';
import { addDays, weekDays, weekStart } from '@/lib/week';
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

/**
 * This week's pay (Sunday to Saturday, as the cards count): gross, the deductions charged in
 * the week, net and the rates, combined and per courier. `courierOrder` orders the couriers.
 */
export function weekPay(entries: readonly PayDay[], deductions: readonly PayDeduction[], today: string, courierOrder: readonly string[]): PaySummary {
  const from = weekStart(today);
  return paySummary(entries, deductions, from, addDays(from, 6), courierOrder);
}
