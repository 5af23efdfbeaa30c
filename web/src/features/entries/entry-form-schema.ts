import { z } from '@/lib/zod';
import { parseForm, type FieldErrors, type FormResult } from '@/lib/form';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from '@/lib/text-rules';
import { parsePounds } from '@/core/money/money';
import { formatPence } from '@/lib/format';
import { BOUNDS } from '@/sync/contract.generated';
import { SIZE_BANDS, bandTotal, type BandCounts, type SizeBand } from '@/core/pay/size-bands';

// The server's bounds (generated from crates/domain/src/entry.rs), checked here too so a typo
// never reaches the outbox only to be parked later.
export const { maxStops: MAX_STOPS, maxExtraPence: MAX_EXTRA_PENCE, maxNotesChars: MAX_NOTES_CHARS } = BOUNDS.entry;
/** 1,000 stops at £100 plus the most extra. */
export const MAX_TOTAL_PENCE = BOUNDS.entry.maxTotalPence;
/** Parcels, collections and failed items: 0–2000 (the entry contract). */
export const MAX_ITEMS = BOUNDS.entry.maxItems;

export const entryMessages = {
  date: 'Please enter a date',
  stopsRequired: 'Please enter number of stops',
  parcelsRequired: 'Please enter number of parcels',
  hoursRequired: 'Enter the start and finish times: this courier pays by the hour',
  stopsWhole: `Stops must be a whole number from 0 to ${MAX_STOPS}`,
  extraFormat: 'Enter extra pay in pounds and pence, e.g. 12.50',
  extraRange: `Extra must be between £0.00 and ${formatPence(MAX_EXTRA_PENCE)}`,
  notes: `Notes must be at most ${MAX_NOTES_CHARS} characters`,
  notesCharacters: forbiddenCharactersMessage('Notes'),
  parcels: `Parcels must be a whole number from 0 to ${MAX_ITEMS}`,
  bandsRequired: 'Please enter the parcels of at least one size band',
  band: `Parcels of a band must be a whole number from 0 to ${MAX_ITEMS}`,
  bandsTotal: `The parcels by band add up to more than ${MAX_ITEMS}`,
  collections: `Collections must be a whole number from 0 to ${MAX_ITEMS}`,
  failedItems: `Failed or returned must be a whole number from 0 to ${MAX_ITEMS}`,
  time: 'Enter a time as HH:MM, e.g. 07:30',
  startWithoutFinish: 'Enter the finish time too, or clear the start time',
  finishWithoutStart: 'Enter the start time too, or clear the finish time',
  saved: 'Entry saved successfully!',
  savedShift: 'Entry saved successfully as a separate shift!',
  failed: 'Failed to save entry',
  totalRange: `This day comes to more than ${formatPence(MAX_TOTAL_PENCE)} with these rates: check the figures`,
} as const;

/** Which counts the card in force asks for on a day (day-pricing.ts `paidFields` gives them). */
export interface DayNeeds {
  stops: boolean;
  parcels: boolean;
  /** The card pays by size band: the parcels are counted by band, and are their sum. */
  bands?: boolean;
  times: boolean;
}

/** What a stops card asks: the spec's form, where stops are required. */
export const STOPS_DAY: DayNeeds = Object.freeze({ stops: true, parcels: false, times: false });

/** The form's field for each band's count (one flat field each, as every field is typed text). */
export const BAND_FIELDS = {
  packet: 'bandPacket',
  small: 'bandSmall',
  medium: 'bandMedium',
  large: 'bandLarge',
  extraLarge: 'bandExtraLarge',
} as const satisfies Record<SizeBand, string>;
export type BandField = (typeof BAND_FIELDS)[SizeBand];

const bandCount = z
  .string()
  .trim()
  .refine((text) => text === '' || (/^\d+$/.test(text) && Number(text) <= MAX_ITEMS), entryMessages.band)
  .transform((text) => (text === '' ? 0 : Number(text)));

/** A count of items: empty is "not counted" (null), never 0, unless `required` says to ask for it. */
function itemCount(message: string, required: string | null = null) {
  return z
    .string()
    .trim()
    .refine((text) => required === null || text !== '', required ?? '')
    .refine((text) => text === '' || (/^\d+$/.test(text) && Number(text) <= MAX_ITEMS), message)
    .transform((text) => (text === '' ? null : Number(text)));
}

const clockTime = z
  .string()
  .trim()
  .refine((text) => text === '' || /^([01]\d|2[0-3]):[0-5]\d$/.test(text), entryMessages.time)
  .transform((text) => (text === '' ? null : text));

/**
 * The entry form's fields as typed, to what is stored. Extra is pounds with at most two
 * decimal places: "12.345" is refused (not rounded), because silently changing money a
 * driver typed is worse than asking again; the input's step of 0.01 says the same.
 *
 * What is required follows the card in force for the day's courier on its date (`needs`, from
 * day-pricing.ts `paidFields`): stops only when the card prices stops (then with the spec's
 * words), parcels when it pays per parcel, start and finish when it pays by the hour. Stops
 * left empty are stored as 0, and a count left empty is "not counted" (null).
 */
export function entryFormSchema(needs: DayNeeds = STOPS_DAY) {
  // The form checks itself on every render (the live total), and building a zod schema costs
  // more than using one: a few ms a render on a slow phone (issue 30). Schemas never change once
  // built, so one per kind of day is kept.
  const key = `${needs.stops}|${needs.parcels}|${needs.bands === true}|${needs.times}`;
  let schema = schemas.get(key);
  if (!schema) {
    schema = buildEntryFormSchema(needs);
    schemas.set(key, schema);
  }
  return schema;
}

const schemas = new Map<string, ReturnType<typeof buildEntryFormSchema>>();

function buildEntryFormSchema(needs: DayNeeds) {
  return z
    .object({
      date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, entryMessages.date),
      stops: z
        .string()
        .trim()
        .refine((text) => !needs.stops || text !== '', entryMessages.stopsRequired)
        .refine((text) => text === '' || /^\d+$/.test(text), entryMessages.stopsWhole)
        .transform((text) => (text === '' ? 0 : Number(text)))
        .refine((stops) => stops <= MAX_STOPS, entryMessages.stopsWhole),
      extra: z
        .string()
        .trim()
        .refine((text) => text === '' || parsePounds(text) !== null, entryMessages.extraFormat)
        .transform((text) => (text === '' ? 0 : (parsePounds(text) ?? 0)))
        .refine((pence) => pence <= MAX_EXTRA_PENCE, entryMessages.extraRange),
      notes: z
        .string()
        .trim()
        .max(MAX_NOTES_CHARS, entryMessages.notes)
        .refine((text) => !hasForbiddenCharacters(text, true), entryMessages.notesCharacters),
      /** '' on a new day: the last used courier, resolved when it is saved. */
      courierId: z.string(),
      parcels: itemCount(entryMessages.parcels, needs.parcels ? entryMessages.parcelsRequired : null),
      collections: itemCount(entryMessages.collections),
      failed: itemCount(entryMessages.failedItems),
      startTime: clockTime,
      finishTime: clockTime,
      bandPacket: bandCount,
      bandSmall: bandCount,
      bandMedium: bandCount,
      bandLarge: bandCount,
      bandExtraLarge: bandCount,
    })
    .superRefine((day, ctx) => {
      if (needs.bands) {
        const bands = bandsOf(day);
        const typed = SIZE_BANDS.some((band) => day[BAND_FIELDS[band]] > 0);
        if (!typed) ctx.addIssue({ code: 'custom', path: ['bandPacket'], message: entryMessages.bandsRequired });
        // Each band's own bound is its own message; the sum is checked once each band is sane.
        else if (SIZE_BANDS.every((band) => bands[band] <= MAX_ITEMS) && bandTotal(bands) > MAX_ITEMS) ctx.addIssue({ code: 'custom', path: ['bandPacket'], message: entryMessages.bandsTotal });
      }
      // Hours come from both times: one alone would silently pay nothing by the hour.
      if (day.startTime !== null && day.finishTime === null) ctx.addIssue({ code: 'custom', path: ['finishTime'], message: entryMessages.startWithoutFinish });
      if (day.startTime === null && day.finishTime !== null) ctx.addIssue({ code: 'custom', path: ['startTime'], message: entryMessages.finishWithoutStart });
      if (needs.times && day.startTime === null && day.finishTime === null) ctx.addIssue({ code: 'custom', path: ['startTime'], message: entryMessages.hoursRequired });
    })
    .transform(({ bandPacket, bandSmall, bandMedium, bandLarge, bandExtraLarge, ...day }) => {
      // A card paying by band prices the bands: the day's parcels are their sum (the server
      // refuses a day whose two figures differ). Otherwise the day is not counted by band.
      if (!needs.bands) return { ...day, bands: null };
      const bands = bandsOf({ bandPacket, bandSmall, bandMedium, bandLarge, bandExtraLarge });
      return { ...day, parcels: bandTotal(bands), bands };
    });
}

function bandsOf(day: Record<BandField, number>): BandCounts {
  return { packet: day.bandPacket, small: day.bandSmall, medium: day.bandMedium, large: day.bandLarge, extraLarge: day.bandExtraLarge };
}

export type EntryFormInput = z.input<ReturnType<typeof entryFormSchema>>;
export type EntryFormValue = z.output<ReturnType<typeof entryFormSchema>>;
export type EntryFormErrors = FieldErrors<EntryFormInput>;

const NO_BAND_FIELDS: Record<BandField, string> = { bandPacket: '', bandSmall: '', bandMedium: '', bandLarge: '', bandExtraLarge: '' };

/** A day's band counts as the form's fields (empty when not counted, or 0). */
export function bandFieldsOf(bands: BandCounts | null | undefined): Record<BandField, string> {
  if (!bands) return { ...NO_BAND_FIELDS };
  const fields = { ...NO_BAND_FIELDS };
  for (const band of SIZE_BANDS) fields[BAND_FIELDS[band]] = bands[band] === 0 ? '' : String(bands[band]);
  return fields;
}

/** An empty form: today, the last used courier, nothing counted. */
export function emptyEntryForm(date: string, courierId = ''): EntryFormInput {
  return { date, courierId, stops: '', parcels: '', collections: '', failed: '', startTime: '', finishTime: '', extra: '', notes: '', ...NO_BAND_FIELDS };
}

export function validateEntryForm(input: EntryFormInput, needs: DayNeeds = STOPS_DAY): FormResult<EntryFormInput, EntryFormValue> {
  return parseForm(entryFormSchema(needs), input);
}

/** Why a local save failed, in words a driver can act on. */
export function saveFailureMessage(error: unknown): string {
  if (error instanceof DayTotalTooHigh) return entryMessages.totalRange;
  const name = error instanceof Error ? error.name : '';
  // Dexie wraps the browser's error; its inner name says what happened.
  const inner = (error as { inner?: { name?: string } } | null)?.inner?.name ?? '';
  if (name === 'QuotaExceededError' || inner === 'QuotaExceededError') {
    return `${entryMessages.failed}: this device has run out of storage space`;
  }
  return entryMessages.failed;
}

/** A day the cards price above what the server stores (a typo in a count or a rate): never saved. */
export class DayTotalTooHigh extends Error {
  constructor() {
    super(entryMessages.totalRange);
    this.name = 'DayTotalTooHigh';
  }
}

/** The priced day, or DayTotalTooHigh when its total is beyond the server's bound. */
export function withinTotalBound<D extends { total: number }>(day: D): D {
  if (day.total > MAX_TOTAL_PENCE) throw new DayTotalTooHigh();
  return day;
}
