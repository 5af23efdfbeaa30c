// A day's miles from the van's odometer (issue 26): what the day form writes into the mileage
// log. Shared here because the day form (entries) writes the record the mileage log (mileage)
// keeps, and a record feature never imports another.
import { BOUNDS } from '@/sync/contract.generated';

/** The most miles one record holds, and the highest odometer reading (the contract's mileage bounds). */
export const { maxMiles: MAX_DAY_MILES, maxOdometer: MAX_ODOMETER } = BOUNDS.mileage;

export interface DayMiles {
  odometerStart: number;
  odometerEnd: number;
  /** Finish − start, less the commute: what HMRC's mileage rate is claimed on. */
  businessMiles: number;
  /** The commute actually taken off: never more than the day drove. */
  commuteMiles: number;
}

/**
 * The day's business and commute miles from its two readings and the day's commute (home to
 * depot and back, both ways together). The commute is taken off once, from the distance between
 * the readings (never from miles already worked out), and never below zero: a day shorter than
 * the commute is all commute. So business + commute is always finish − start, as the server
 * requires, and working it out again from a saved record gives the same figures.
 * Null when the readings cannot make a day (finish before start, or more than a record holds).
 */
export function dayMiles(odometerStart: number, odometerEnd: number, dayCommute: number): DayMiles | null {
  const driven = odometerEnd - odometerStart;
  if (![odometerStart, odometerEnd, dayCommute].every((n) => Number.isSafeInteger(n) && n >= 0)) return null;
  if (driven < 0 || driven > MAX_DAY_MILES || odometerEnd > MAX_ODOMETER) return null;
  const commuteMiles = Math.min(dayCommute, driven);
  return { odometerStart, odometerEnd, businessMiles: driven - commuteMiles, commuteMiles };
}

/** A day's commute from a vehicle's: home to depot, each way, so twice. */
export function dayCommuteOf(commuteEachWay: number): number {
  return 2 * commuteEachWay;
}

/** The reading a vehicle's day `date` starts from: the finish of its latest earlier day (by date, then when made), or null. */
export function lastFinishOf(
  log: readonly { vehicleId: string; date: string; createdAt: string; odometerEnd: number | null; deleted?: 0 | 1 }[],
  vehicleId: string,
  date: string,
): number | null {
  let latest: (typeof log)[number] | null = null;
  for (const record of log) {
    if (record.deleted || record.vehicleId !== vehicleId || record.odometerEnd === null) continue;
    if (record.date >= date) continue;
    if (!latest || record.date > latest.date || (record.date === latest.date && record.createdAt > latest.createdAt)) latest = record;
  }
  return latest?.odometerEnd ?? null;
}
