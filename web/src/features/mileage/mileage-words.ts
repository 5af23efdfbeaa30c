// Vehicles and mileage in words. Rates come from the tax data of the year shown
// (core/tax/tax-years.json), never from constants here, so a new year's rates need no code.
import { countWords, formatPence } from '@/lib/format';
import type { MileageClaimLine } from '@/core/tax/mileage-claim';
import { taxYearRates, type MileageRate, type TaxYearLabel } from '@/core/tax/tax-year';
import type { VehicleContent, VehicleType } from '@/sync/types';

const count = new Intl.NumberFormat('en-GB');

export const vehicleTypeWords: Record<VehicleType, string> = {
  carVan: 'Car or van',
  motorcycle: 'Motorcycle',
  bicycle: 'Bicycle',
};

/** "1 mile", "10,000 miles". */
export function milesWords(miles: number): string {
  return countWords(miles, 'mile');
}

/** A rate per mile as a driver reads it: "45p", and pounds only from £1 up. */
export function perMileWords(pence: number): string {
  return pence < 100 ? `${pence}p` : formatPence(pence);
}

/** The flat rate a vehicle claims in `year`, or null when it claims actual costs (or has no flat rate). */
export function flatRateOf(vehicle: Pick<VehicleContent, 'type' | 'method'>, year: TaxYearLabel): MileageRate | null {
  if (vehicle.method !== 'flatRate') return null;
  return taxYearRates(year).rates.mileage[vehicle.type];
}

/** "Flat rate: 45p a mile for the first 10,000 business miles, then 25p", "Flat rate: 24p a mile", "Actual costs…". */
export function methodWords(vehicle: Pick<VehicleContent, 'type' | 'method'>, year: TaxYearLabel): string {
  if (vehicle.type === 'bicycle') return 'Actual costs: HMRC’s flat mileage rate does not cover bicycles';
  const rate = flatRateOf(vehicle, year);
  if (!rate) return 'Actual costs, times the business-use share from the log';
  if (rate.firstMilesPence === rate.afterPence) return `Flat rate: ${perMileWords(rate.firstMilesPence)} a mile`;
  return `Flat rate: ${perMileWords(rate.firstMilesPence)} a mile for the first ${count.format(rate.thresholdMiles)} business miles, then ${perMileWords(rate.afterPence)}`;
}

/** How a record's claim is made up: "30 miles at 45p", or on the day that crosses the break "10 miles at 45p + 20 at 25p". */
export function claimLineWords(line: MileageClaimLine, rate: MileageRate): string {
  if (line.milesAtFirstRate > 0 && line.milesAtAfterRate > 0) {
    return `${milesWords(line.milesAtFirstRate)} at ${perMileWords(rate.firstMilesPence)} + ${count.format(line.milesAtAfterRate)} at ${perMileWords(rate.afterPence)}`;
  }
  if (line.milesAtAfterRate > 0) return `${milesWords(line.milesAtAfterRate)} at ${perMileWords(rate.afterPence)}`;
  return `${milesWords(line.milesAtFirstRate)} at ${perMileWords(rate.firstMilesPence)}`;
}

/** An actual-cost vehicle's business use, whole percent for reading (the exact fraction is applied to costs). */
export function businessUseWords(businessMiles: number, totalMiles: number): string {
  if (totalMiles <= 0) return 'No miles logged: the business-use share comes from the log';
  return `${Math.round((businessMiles * 100) / totalMiles)}% business use from the log`;
}

/** How far a flat-rate vehicle is into the year's higher-rate miles. Null when the rate has no break (motorcycles). */
export function breakProgressWords(businessMiles: number, rate: MileageRate): string | null {
  if (rate.firstMilesPence === rate.afterPence) return null;
  const first = count.format(rate.thresholdMiles);
  if (businessMiles < rate.thresholdMiles) {
    return `${count.format(businessMiles)} of the first ${first} miles at ${perMileWords(rate.firstMilesPence)}: ${milesWords(rate.thresholdMiles - businessMiles)} to go`;
  }
  return `Past the first ${first} miles: ${milesWords(businessMiles - rate.thresholdMiles)} at ${perMileWords(rate.afterPence)} so far`;
}

// Pinned to UTC and fed Date.UTC, so the day never depends on the device's zone.
const dayFormat = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

/** A YYYY-MM-DD day as the log shows it: "Mon 4 May". */
export function logDayWords(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return dayFormat.format(Date.UTC(y, m - 1, d));
}
