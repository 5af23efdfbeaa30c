// The day form's odometer part (issue 26), as typed, to what the day's mileage record is
// made of. Optional: both readings or neither, as the mileage log requires.
import { dayMiles, MAX_DAY_MILES, MAX_ODOMETER } from '@/core/mileage/day-miles';
import type { DayOdometer } from './commands';

export interface OdometerInput {
  vehicleId: string;
  start: string;
  end: string;
  /** Home to depot and back today, in miles. */
  commute: string;
}

export type OdometerErrors = Partial<Record<'start' | 'end' | 'commute', string>>;

export const odometerMessages = {
  reading: `Enter the reading as whole miles, up to ${MAX_ODOMETER.toLocaleString('en-GB')}`,
  both: 'Enter both odometer readings, or neither',
  order: 'The finish reading must be at least the start',
  tooFar: `At most ${MAX_DAY_MILES.toLocaleString('en-GB')} miles between the readings`,
  commute: 'Enter the commute as whole miles, or leave it empty',
} as const;

const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : null);

/** The odometer readings as a day's miles, null when none were typed, or the problems found. */
export function validateOdometer(input: OdometerInput): { ok: true; value: DayOdometer | null } | { ok: false; errors: OdometerErrors } {
  const errors: OdometerErrors = {};
  const [startText, endText, commuteText] = [input.start.trim(), input.end.trim(), input.commute.trim()];
  const commute = commuteText === '' ? 0 : whole(commuteText);
  if (commute === null || commute > MAX_DAY_MILES) errors.commute = odometerMessages.commute;
  if (startText === '' && endText === '') return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: null };
  if (input.vehicleId === '') return { ok: true, value: null };
  const start = startText === '' ? null : whole(startText);
  const end = endText === '' ? null : whole(endText);
  if (startText !== '' && (start === null || start > MAX_ODOMETER)) errors.start = odometerMessages.reading;
  if (endText !== '' && (end === null || end > MAX_ODOMETER)) errors.end = odometerMessages.reading;
  if (startText === '') errors.start ??= odometerMessages.both;
  if (endText === '') errors.end ??= odometerMessages.both;
  if (start !== null && end !== null && !errors.start && !errors.end) {
    if (end < start) errors.end = odometerMessages.order;
    else if (end - start > MAX_DAY_MILES) errors.end = odometerMessages.tooFar;
  }
  if (Object.keys(errors).length > 0 || start === null || end === null || commute === null) return { ok: false, errors };
  const value: DayOdometer = { vehicleId: input.vehicleId, odometerStart: start, odometerEnd: end, dayCommute: commute };
  return dayMiles(start, end, commute) ? { ok: true, value } : { ok: false, errors: { end: odometerMessages.tooFar } };
}
