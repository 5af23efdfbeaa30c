// The dashboard's figures, from the entries on the device (PRODUCT.md "The four stat cards").
// Every day worked counts: a day paid per parcel (an Evri Sunday) adds its parcels beside the
// stops rather than dragging the stops average down, and a day's shifts are one day.
import { paySummary, type PayDay, type PayDeduction, type PaySummary } from './pay-summary';
import type { IdentifiedCard } from '@/core/pay/pay';
import { addDays, weekDays, weekStart } from '@/lib/week';
import type { LocalEntry } from '@/sync/types';

export interface DayWork {
  date: string;
  stops: number;
  /** Parcels of the day's work paid per parcel (see countedParcels). */
  parcels: number;
  entries: number;
}

export interface DashboardStats {
  /** Stops since Sunday (this week's Sunday..Saturday). */
  weekStops: number;
  /** Parcels since Sunday on days paid per parcel. */
  weekParcels: number;
  weekEntries: number;
  /** Distinct days with an entry this week. */
  weekDays: number;
  /** This week's stops over the days that had stops, rounded; 0 with none (PRODUCT.md: not over entries). */
  dailyAverage: number;
  /** Days this week with stops. */
  stopDays: number;
  /** This week's paid-per-parcel parcels over the days that had them, rounded. */
  dailyParcels: number;
  parcelDays: number;
  /** Sum of this week's entry totals, pence. */
  weekEarnings: number;
  allTimeStops: number;
  allTimeParcels: number;
  /** Sunday..Saturday of this week. */
  days: DayWork[];
}

/**
 * The parcels a day counts as its work: those of a day its card pays per parcel. A courier paid
 * per stop may have parcels noted too, which are not a second count of the same work. A day
 * priced by no card we have counts its parcels when it has no stops.
 */
export function countedParcels(entry: Pick<LocalEntry, 'parcels' | 'stops' | 'rateCardId'>, cards: ReadonlyMap<string, Pick<IdentifiedCard, 'perParcel'>>): number {
  if (entry.parcels === null) return 0;
  const card = entry.rateCardId === null ? undefined : cards.get(entry.rateCardId);
  if (card) return card.perParcel === null ? 0 : entry.parcels;
  return entry.stops === 0 ? entry.parcels : 0;
}

/** `entries` are live (not deleted) entries; `today` is the local YYYY-MM-DD day; `cards` priced them. */
export function dashboardStats(entries: readonly LocalEntry[], today: string, cards: readonly IdentifiedCard[] = []): DashboardStats {
  const byId = new Map(cards.map((card) => [card.id, card]));
  const days: DayWork[] = weekDays(today).map((date) => ({ date, stops: 0, parcels: 0, entries: 0 }));
  const byDate = new Map(days.map((day) => [day.date, day]));
  let weekEntries = 0;
  let weekEarnings = 0;
  let allTimeStops = 0;
  let allTimeParcels = 0;
  for (const entry of entries) {
    const parcels = countedParcels(entry, byId);
    allTimeStops += entry.stops;
    allTimeParcels += parcels;
    const day = byDate.get(entry.date);
    if (!day) continue;
    day.stops += entry.stops;
    day.parcels += parcels;
    day.entries += 1;
    weekEntries += 1;
    weekEarnings += entry.total;
  }
  const sum = (pick: (day: DayWork) => number) => days.reduce((total, day) => total + pick(day), 0);
  const count = (has: (day: DayWork) => boolean) => days.filter(has).length;
  const weekStops = sum((day) => day.stops);
  const weekParcels = sum((day) => day.parcels);
  const stopDays = count((day) => day.stops > 0);
  const parcelDays = count((day) => day.parcels > 0);
  return {
    weekStops,
    weekParcels,
    weekEntries,
    weekDays: count((day) => day.entries > 0),
    dailyAverage: stopDays === 0 ? 0 : Math.round(weekStops / stopDays),
    stopDays,
    dailyParcels: parcelDays === 0 ? 0 : Math.round(weekParcels / parcelDays),
    parcelDays,
    weekEarnings,
    allTimeStops,
    allTimeParcels,
    days,
  };
}

/**
 * This week's pay (Sunday to Saturday, as the cards count): gross, the deductions charged in
 * the week, net and the rates, combined and per courier. `courierOrder` orders the couriers.
 */
export function weekPay(entries: readonly PayDay[], deductions: readonly PayDeduction[], today: string, courierOrder: readonly string[]): PaySummary {
  const from = weekStart(today);
  return paySummary(entries, deductions, from, addDays(from, 6), courierOrder);
}
