// What a period paid: gross (the days' fixed totals), the deductions charged in it, net, and
// the rates a driver compares couriers by (£ per hour gross and net; £ per stop, or per parcel
// for days paid without stops). One pure function serves the dashboard's week, the
// history's range and each summary row, so every screen adds money up the same way.
import type { DeductionContent, EntryContent } from '@/sync/types';
import { deductedBetween } from '@/core/deductions/deductions';
import { roundedShare, workedMinutes } from '@/core/pay/pay';

/** What the figures need from a day; a LocalEntry fits. */
export type PayDay = Pick<EntryContent, 'date' | 'stops' | 'total' | 'courierId' | 'startTime' | 'finishTime'> & Partial<Pick<EntryContent, 'parcels'>>;
/** What the figures need from a deduction; a LocalDeduction fits. */
export type PayDeduction = Pick<DeductionContent, 'courierId' | 'amount' | 'repeat' | 'from' | 'to'>;

export interface PayFigures {
  /** Pence: the sum of the days' totals (extra included). */
  gross: number;
  /** Pence charged by deductions on days inside the period. */
  deductions: number;
  /** gross − deductions; negative when the charges outweigh the work. */
  net: number;
  stops: number;
  /** Distinct days with at least one entry. */
  daysWorked: number;
  /** Minutes worked on the days with a start and a finish time. */
  minutesWorked: number;
  /**
   * Pence per hour: the gross of the days with start and finish times over their hours, to the
   * nearest penny (halves up). Gross, before deductions: a charge belongs to a period, not a
   * day. Null when no day in the period has times.
   */
  perHour: number | null;
  /** Days with a start and a finish time: the days £ per hour counts. */
  timedDays: number;
  /**
   * Pence per hour net of deductions: the timed days' gross less their share of the period's
   * deductions (shared over the days worked, so a week's van hire weighs on each day alike),
   * over the same hours. Negative when the charges outweigh the work; null with no times.
   */
  netPerHour: number | null;
  /** Pence per stop: the gross of the days with stops over those stops, to the nearest penny. Null with no stops. */
  perStop: number | null;
  /** Parcels of the days with no stops (the days £ per parcel is over). */
  parcels: number;
  /**
   * Pence per parcel: the gross of the days with parcels and no stops (an Evri Sunday) over their
   * parcels, to the nearest penny. Such a day is never in £ per stop. Null with none.
   */
  perParcel: number | null;
}

export interface CourierPay extends PayFigures {
  courierId: string;
}

export interface PaySummary extends PayFigures {
  /**
   * Each courier with a day or a charge in the period, in `courierOrder` (others after, by id).
   * Screens show it when more than one courier is in it.
   */
  byCourier: CourierPay[];
}

/** roundedShare of an amount that may be negative: halves away from zero. */
function signedShare(amount: number, numerator: number, denominator: number): number {
  const share = roundedShare(Math.abs(amount), numerator, denominator);
  return amount < 0 && share > 0 ? -share : share;
}

/** The figures of the days and charges from `from` to `to` (YYYY-MM-DD, both inclusive). */
export function payFigures(days: readonly PayDay[], deductions: readonly PayDeduction[], from: string, to: string): PayFigures {
  let gross = 0;
  let stops = 0;
  let timedGross = 0;
  let minutesWorked = 0;
  let stopGross = 0;
  let parcels = 0;
  let parcelGross = 0;
  const dates = new Set<string>();
  const timedDates = new Set<string>();
  for (const day of days) {
    if (day.date < from || day.date > to) continue;
    gross += day.total;
    stops += day.stops;
    dates.add(day.date);
    // A start equal to the finish is no time worked: counting its pay would inflate the rate.
    const minutes = workedMinutes(day.startTime, day.finishTime);
    if (minutes) {
      minutesWorked += minutes;
      timedGross += day.total;
      timedDates.add(day.date);
    }
    if (day.stops > 0) stopGross += day.total;
    else if ((day.parcels ?? 0) > 0) {
      parcels += day.parcels ?? 0;
      parcelGross += day.total;
    }
  }
  const deducted = deductedBetween(deductions, from, to);
  const timedDeductions = timedDates.size > 0 ? roundedShare(deducted, timedDates.size, dates.size) : 0;
  return {
    gross,
    deductions: deducted,
    net: gross - deducted,
    stops,
    daysWorked: dates.size,
    minutesWorked,
    perHour: minutesWorked > 0 ? roundedShare(timedGross, 60, minutesWorked) : null,
    timedDays: timedDates.size,
    netPerHour: minutesWorked > 0 ? signedShare(timedGross - timedDeductions, 60, minutesWorked) : null,
    perStop: stops > 0 ? roundedShare(stopGross, 1, stops) : null,
    parcels,
    perParcel: parcels > 0 ? roundedShare(parcelGross, 1, parcels) : null,
  };
}

/** payFigures for everything, and for each courier with a day or a charge in the period. */
export function paySummary(
  days: readonly PayDay[],
  deductions: readonly PayDeduction[],
  from: string,
  to: string,
  courierOrder: readonly string[] = [],
): PaySummary {
  const ids = new Set<string>();
  for (const day of days) if (day.date >= from && day.date <= to) ids.add(day.courierId);
  for (const deduction of deductions) if (deductedBetween([deduction], from, to) > 0) ids.add(deduction.courierId);
  const rank = (id: string) => {
    const index = courierOrder.indexOf(id);
    return index === -1 ? courierOrder.length : index;
  };
  const byCourier = [...ids]
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((courierId) => ({
      courierId,
      ...payFigures(
        days.filter((day) => day.courierId === courierId),
        deductions.filter((deduction) => deduction.courierId === courierId),
        from,
        to,
      ),
    }));
  return { ...payFigures(days, deductions, from, to), byCourier };
}
