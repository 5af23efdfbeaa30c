// The fuel fill form, as typed, to what is stored. The limits are the server's, from the
// contract (BOUNDS.fuelFill), so a slip is caught here in plain words, not parked after a push.
import { z } from '@/lib/zod';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from '@/lib/text-rules';
import { parseForm, type FieldErrors, type FormResult } from '@/lib/form';
import { parsePounds, penceToPounds } from '@/core/money/money';
import { BOUNDS } from '@/sync/contract.generated';
import type { FuelFillContent } from '@/sync/types';

export const { maxQuantity: MAX_QUANTITY, maxCostPence: MAX_COST_PENCE, maxOdometer: MAX_ODOMETER, maxNoteChars: MAX_NOTE_CHARS } = BOUNDS.fuelFill;

export type FuelUnit = FuelFillContent['unit'];

/** The unit as a driver reads it. */
export const UNIT_WORDS: Record<FuelUnit, string> = { litres: 'litres', kWh: 'kWh' };

const most = (thousandths: number) => (thousandths / 1_000).toLocaleString('en-GB');

export const fuelMessages = {
  date: 'Please enter the day you filled up',
  vehicle: 'Please choose the vehicle',
  quantityRequired: (unit: FuelUnit) => `Please enter how many ${UNIT_WORDS[unit]}`,
  quantityFormat: (unit: FuelUnit) => `Enter the ${UNIT_WORDS[unit]} as a number, e.g. 45.67`,
  quantityRange: (unit: FuelUnit) => `Enter from 0.001 to ${most(MAX_QUANTITY)} ${UNIT_WORDS[unit]}`,
  costRequired: 'Please enter what it cost (0 for a free charge)',
  costFormat: 'Enter the cost in pounds and pence, e.g. 68.45',
  costRange: `The cost must be from £0.00 to £${penceToPounds(MAX_COST_PENCE)}`,
  odometer: `An odometer reading is a whole number of miles up to ${MAX_ODOMETER.toLocaleString('en-GB')}`,
  noteLength: `The note must be at most ${MAX_NOTE_CHARS} characters`,
  noteControl: forbiddenCharactersMessage('The note'),
} as const;

export interface FuelFillFormInput {
  date: string;
  vehicleId: string;
  unit: FuelUnit;
  /** Litres or kWh as typed, up to 3 decimals. */
  quantity: string;
  /** Pounds as typed. */
  cost: string;
  /** Whole miles, '' when not read. */
  odometer: string;
  full: boolean;
  note: string;
}

export type FuelFillFormErrors = FieldErrors<FuelFillFormInput>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** "45.67" litres → 45,670 millilitres (kWh → watt-hours), read digit by digit, never multiplied as a float; null when not a number with at most 3 decimals. */
export function parseThousandths(text: string): number | null {
  const match = /^(\d*)(?:\.(\d{0,3}))?$/.exec(text.trim().replace(/,/g, ''));
  if (!match) return null;
  const [, whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return null;
  const value = Number(whole || '0') * 1_000 + Number(fraction.padEnd(3, '0'));
  return Number.isSafeInteger(value) ? value : null;
}

/** 45,670 → "45.67": the form's text for a stored quantity. */
export function thousandthsText(value: number): string {
  const whole = Math.floor(value / 1_000);
  const fraction = String(value % 1_000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}

export const fuelFillFormSchema = z
  .object({
    date: z.string(),
    vehicleId: z.string(),
    unit: z.enum(['litres', 'kWh']),
    quantity: z.string(),
    cost: z.string(),
    odometer: z.string(),
    full: z.boolean(),
    note: z.string(),
  })
  .transform((value, context): FuelFillContent => {
    const problem = (path: keyof FuelFillFormInput, message: string) => context.addIssue({ code: 'custom', path: [path], message });
    if (!DAY.test(value.date)) problem('date', fuelMessages.date);
    if (value.vehicleId === '') problem('vehicleId', fuelMessages.vehicle);

    const quantity = parseThousandths(value.quantity);
    if (value.quantity.trim() === '') problem('quantity', fuelMessages.quantityRequired(value.unit));
    else if (quantity === null) problem('quantity', fuelMessages.quantityFormat(value.unit));
    else if (quantity < 1 || quantity > MAX_QUANTITY) problem('quantity', fuelMessages.quantityRange(value.unit));

    const cost = parsePounds(value.cost.replace(/^\s*£/, ''));
    if (value.cost.trim() === '') problem('cost', fuelMessages.costRequired);
    else if (cost === null) problem('cost', fuelMessages.costFormat);
    else if (cost > MAX_COST_PENCE) problem('cost', fuelMessages.costRange);

    const reading = value.odometer.trim().replace(/,/g, '');
    const odometer = reading === '' ? null : /^\d+$/.test(reading) && Number(reading) <= MAX_ODOMETER ? Number(reading) : Number.NaN;
    if (Number.isNaN(odometer)) problem('odometer', fuelMessages.odometer);

    const note = value.note.trim();
    if ([...note].length > MAX_NOTE_CHARS) problem('note', fuelMessages.noteLength);
    else if (hasForbiddenCharacters(note)) problem('note', fuelMessages.noteControl);

    return { date: value.date, vehicleId: value.vehicleId, unit: value.unit, quantity: quantity ?? 0, cost: cost ?? 0, odometer, full: value.full, note };
  });

export function validateFuelFillForm(input: FuelFillFormInput): FormResult<FuelFillFormInput, FuelFillContent> {
  return parseForm(fuelFillFormSchema, input);
}

/** A new fill: today, the given vehicle and unit, a full tank. */
export function blankFuelFillForm(today: string, vehicleId: string, unit: FuelUnit = 'litres'): FuelFillFormInput {
  return { date: today, vehicleId, unit, quantity: '', cost: '', odometer: '', full: true, note: '' };
}

export function fuelFillFormOf(fill: FuelFillContent): FuelFillFormInput {
  return {
    date: fill.date,
    vehicleId: fill.vehicleId,
    unit: fill.unit,
    quantity: thousandthsText(fill.quantity),
    cost: penceToPounds(fill.cost),
    odometer: fill.odometer === null ? '' : String(fill.odometer),
    full: fill.full,
    note: fill.note,
  };
}
