// The mileage form, as typed, to what is stored. The rules are the contract's (issue 13; the
// bounds generated from it) so a slip is caught here in plain words, not parked after a push:
// whole miles; both odometer readings or neither; the end reading at least the start; at most
// the contract's miles in a day; business plus commuting within the miles driven; at least a
// mile without odometer readings.
import { z } from '@/lib/zod';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from '@/lib/text-rules';
import { parseForm, type FieldErrors, type FormResult } from '@/lib/form';
import { MAX_DAY_MILES, MAX_ODOMETER } from '@/core/mileage/day-miles';
import { BOUNDS } from '@/sync/contract.generated';
import type { MileageContent } from '@/sync/types';

export const MAX_NOTE_CHARS = BOUNDS.mileage.maxNoteChars;

export const mileageMessages = {
  date: 'Please enter the day you drove',
  vehicle: 'Please choose the vehicle',
  wholeMiles: 'Enter whole miles, e.g. 42',
  odometerRange: `An odometer reading is a whole number up to ${MAX_ODOMETER.toLocaleString('en-GB')}`,
  odometerStart: 'Enter the odometer reading at the start of the day',
  odometerEnd: 'Enter the odometer reading at the end of the day',
  endBeforeStart: 'The reading at the end must be at least the reading at the start',
  tooFar: `That is more than ${MAX_DAY_MILES.toLocaleString('en-GB')} miles in a day: please check the readings`,
  dayMiles: `At most ${MAX_DAY_MILES.toLocaleString('en-GB')} miles in a day`,
  overSpan: (span: number) => `Business and commuting miles add up to more than the ${span.toLocaleString('en-GB')} ${span === 1 ? 'mile' : 'miles'} driven`,
  noMiles: 'Enter the miles, or the odometer readings',
  noteLength: `The note must be at most ${MAX_NOTE_CHARS} characters`,
  noteControl: forbiddenCharactersMessage('The note'),
} as const;

/** How the day's miles were measured: odometer readings, or miles typed straight in. */
export type MilesFrom = 'odometer' | 'typed';

export interface MileageFormInput {
  date: string;
  vehicleId: string;
  /** '' = no courier. */
  courierId: string;
  milesFrom: MilesFrom;
  odometerStart: string;
  odometerEnd: string;
  /** With odometers, '' means "the rest after commuting". */
  businessMiles: string;
  commuteMiles: string;
  note: string;
}

export type MileageFormErrors = FieldErrors<MileageFormInput>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const WHOLE = /^\d+$/;

/** A typed whole number ('' = blank → null), or NaN when it is not one. */
function wholeOf(text: string): number | null {
  const trimmed = text.trim().replace(/,/g, '');
  if (trimmed === '') return null;
  return WHOLE.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** The odometer span of what was typed, when both readings are sensible; else null. */
export function odometerSpan(input: Pick<MileageFormInput, 'milesFrom' | 'odometerStart' | 'odometerEnd'>): number | null {
  if (input.milesFrom !== 'odometer') return null;
  const start = wholeOf(input.odometerStart);
  const end = wholeOf(input.odometerEnd);
  if (start === null || end === null || Number.isNaN(start) || Number.isNaN(end) || end < start) return null;
  return end - start;
}

/** With odometers and business left blank: business is what commuting leaves of the span. */
export function defaultBusinessMiles(input: Pick<MileageFormInput, 'milesFrom' | 'odometerStart' | 'odometerEnd' | 'commuteMiles'>): number | null {
  const span = odometerSpan(input);
  if (span === null) return null;
  const commute = wholeOf(input.commuteMiles) ?? 0;
  return Number.isNaN(commute) ? null : Math.max(0, span - commute);
}

export const mileageFormSchema = z
  .object({
    date: z.string(),
    vehicleId: z.string(),
    courierId: z.string(),
    milesFrom: z.enum(['odometer', 'typed']),
    odometerStart: z.string(),
    odometerEnd: z.string(),
    businessMiles: z.string(),
    commuteMiles: z.string(),
    // Checked inside the transform with the rest, so every problem shows at once.
    note: z.string(),
  })
  .transform((value, context): MileageContent => {
    const problem = (path: keyof MileageFormInput, message: string) => context.addIssue({ code: 'custom', path: [path], message });
    if (!DAY.test(value.date)) problem('date', mileageMessages.date);
    if (value.vehicleId === '') problem('vehicleId', mileageMessages.vehicle);
    const note = value.note.trim();
    if ([...note].length > MAX_NOTE_CHARS) problem('note', mileageMessages.noteLength);
    else if (hasForbiddenCharacters(note)) problem('note', mileageMessages.noteControl);

    const miles = (path: 'businessMiles' | 'commuteMiles'): number | null => {
      const typed = wholeOf(value[path]);
      if (typed === null) return null;
      if (Number.isNaN(typed)) problem(path, mileageMessages.wholeMiles);
      else if (typed > MAX_DAY_MILES) problem(path, mileageMessages.dayMiles);
      return typed;
    };
    const commute = miles('commuteMiles') ?? 0;
    let business = miles('businessMiles');
    let odometerStart: number | null = null;
    let odometerEnd: number | null = null;

    if (value.milesFrom === 'odometer') {
      const reading = (path: 'odometerStart' | 'odometerEnd', missing: string): number | null => {
        const typed = wholeOf(value[path]);
        if (typed === null) problem(path, missing);
        else if (Number.isNaN(typed) || typed > MAX_ODOMETER) problem(path, mileageMessages.odometerRange);
        else return typed;
        return null;
      };
      odometerStart = reading('odometerStart', mileageMessages.odometerStart);
      odometerEnd = reading('odometerEnd', mileageMessages.odometerEnd);
      if (odometerStart !== null && odometerEnd !== null) {
        const span = odometerEnd - odometerStart;
        if (span < 0) problem('odometerEnd', mileageMessages.endBeforeStart);
        else if (span > MAX_DAY_MILES) problem('odometerEnd', mileageMessages.tooFar);
        else {
          business ??= Math.max(0, span - commute);
          if (business + commute > span) problem('businessMiles', mileageMessages.overSpan(span));
        }
      }
    } else if ((business ?? 0) + commute < 1) {
      problem('businessMiles', mileageMessages.noMiles);
    }

    return {
      date: value.date,
      vehicleId: value.vehicleId,
      courierId: value.courierId === '' ? null : value.courierId,
      odometerStart,
      odometerEnd,
      businessMiles: business ?? 0,
      commuteMiles: commute,
      note,
    };
  });

export function validateMileageForm(input: MileageFormInput): FormResult<MileageFormInput, MileageContent> {
  return parseForm(mileageFormSchema, input);
}

export function blankMileageForm(today: string, vehicleId: string, milesFrom: MilesFrom = 'odometer'): MileageFormInput {
  return { date: today, vehicleId, courierId: '', milesFrom, odometerStart: '', odometerEnd: '', businessMiles: '', commuteMiles: '', note: '' };
}

export function mileageFormOf(record: MileageContent): MileageFormInput {
  const odometer = record.odometerStart !== null && record.odometerEnd !== null;
  return {
    date: record.date,
    vehicleId: record.vehicleId,
    courierId: record.courierId ?? '',
    milesFrom: odometer ? 'odometer' : 'typed',
    odometerStart: odometer ? String(record.odometerStart) : '',
    odometerEnd: odometer ? String(record.odometerEnd) : '',
    businessMiles: String(record.businessMiles),
    commuteMiles: record.commuteMiles === 0 ? '' : String(record.commuteMiles),
    note: record.note,
  };
}
