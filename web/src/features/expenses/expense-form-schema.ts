// The expense form, as typed, to what is stored. The bounds are the server's expense rules (the
// generated contract), so a slip is caught here in plain words instead of parked after a push.
import { z } from '@/lib/zod';
import { hasForbiddenCharacters } from '@/lib/text-rules';
import { parseForm, type FieldErrors, type FormResult } from '@/lib/form';
import { parsePounds, penceToPounds } from '@/core/money/money';
import { EXPENSE_CATEGORY_IDS } from '@/core/tax/expense-categories';
import { asksForVehicle, vehicleChoiceOf, vehicleChoiceProblem, vehicleIdOf } from '@/core/tax/vehicle-choice';
import { formatPence } from '@/lib/format';
import { MAX_RECEIPTS } from '@/sync/receipts';
import { BOUNDS } from '@/sync/contract.generated';
import type { DeductionRepeat, ExpenseCategory, ExpenseContent } from '@/sync/types';

/** The note's length, and the most a payment can be (£100,000: only a typo goes above it). */
export const { maxNoteChars: MAX_NOTE_CHARS, maxAmountPence: MAX_AMOUNT_PENCE } = BOUNDS.expense;

export const expenseMessages = {
  date: 'Please enter the day you paid, e.g. 02/05/2025',
  firstDate: 'Please enter the day of the first payment',
  amountRequired: 'Please enter the amount',
  amountFormat: 'Enter the amount in pounds and pence, e.g. 45.50',
  amountRange: `The amount must be from £0.01 to ${formatPence(MAX_AMOUNT_PENCE)}`,
  category: 'Please choose what the money was spent on',
  noteLength: `The note must be at most ${MAX_NOTE_CHARS} characters`,
  noteControl: 'The note must be one line, with no special characters',
  until: 'The last payment must be on or after the first',
  untilDate: 'Please enter a real day for the last payment, or leave it empty',
  receipts: `An expense can have at most ${MAX_RECEIPTS} receipt photos`,
} as const;

/** What the photo picker says (the photos are checked as they are added, before the form). */
export const photoMessages = {
  notAPicture: 'Please choose a photo (a picture file)',
  tooMany: `An expense can have at most ${MAX_RECEIPTS} receipt photos`,
} as const;

export interface ExpenseFormInput {
  date: string;
  amount: string;
  /** '' until the driver picks one. */
  category: ExpenseCategory | '';
  note: string;
  /** '' = no courier. */
  courierId: string;
  /** A vehicle id, NO_VEHICLE, or '' (not chosen: no vehicle, unless a running cost must say). */
  vehicleId: string;
  repeat: DeductionRepeat;
  /** Repeating only; '' = still running. */
  until: string;
  /** The receipt photos' ids, in the order they were added. */
  receipts: string[];
}

export type ExpenseFormErrors = FieldErrors<ExpenseFormInput>;


/** A real calendar day written YYYY-MM-DD in the years the server takes (2000–2100, the contract's). */
export function isRealDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < BOUNDS.day.minYear || year > BOUNDS.day.maxYear) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The form's rules. `hasVehicles`: the driver has a vehicle, so a running cost (fuel, repairs…)
 * must say which one it is for, or "No vehicle" (core/tax/vehicle-choice.ts).
 */
export function expenseFormSchema(hasVehicles: boolean) {
  return z
    .object({
      date: z.string(),
      amount: z
        .string()
        .trim()
        .min(1, expenseMessages.amountRequired)
        .refine((text) => parsePounds(text) !== null, expenseMessages.amountFormat)
        .transform((text) => parsePounds(text) ?? 0)
        .refine((pence) => pence >= 1 && pence <= MAX_AMOUNT_PENCE, expenseMessages.amountRange),
      category: z.enum(EXPENSE_CATEGORY_IDS, { error: expenseMessages.category }),
      note: z
        .string()
        .trim()
        .refine((text) => [...text].length <= MAX_NOTE_CHARS, expenseMessages.noteLength)
        .refine((text) => !hasForbiddenCharacters(text), expenseMessages.noteControl),
      courierId: z.string(),
      vehicleId: z.string(),
      repeat: z.enum(['once', 'weekly', 'monthly']),
      until: z.string().trim(),
      receipts: z.array(z.string()).refine((ids) => ids.length <= MAX_RECEIPTS, expenseMessages.receipts),
    })
    .superRefine((value, context) => {
      const vehicleProblem = vehicleChoiceProblem(value.vehicleId, asksForVehicle(value.category, hasVehicles));
      if (vehicleProblem) context.addIssue({ code: 'custom', path: ['vehicleId'], message: vehicleProblem });
      if (!isRealDay(value.date)) {
        context.addIssue({ code: 'custom', path: ['date'], message: value.repeat === 'once' ? expenseMessages.date : expenseMessages.firstDate });
        return;
      }
      if (value.repeat === 'once' || value.until === '') return;
      if (!isRealDay(value.until)) context.addIssue({ code: 'custom', path: ['until'], message: expenseMessages.untilDate });
      else if (value.until < value.date) context.addIssue({ code: 'custom', path: ['until'], message: expenseMessages.until });
    })
    .transform(
      (value): ExpenseContent => ({
        date: value.date,
        amount: value.amount,
        category: value.category,
        note: value.note,
        courierId: value.courierId === '' ? null : value.courierId,
        vehicleId: vehicleIdOf(value.vehicleId),
        repeat: value.repeat,
        // A one-off has no end; a repeating one with no last day is still running.
        repeatUntil: value.repeat === 'once' || value.until === '' ? null : value.until,
        // One photo is one photo: the same id twice would be stored once and listed twice.
        receipts: [...new Set(value.receipts)],
      }),
    );
}

export function validateExpenseForm(input: ExpenseFormInput, hasVehicles = false): FormResult<ExpenseFormInput, ExpenseContent> {
  return parseForm(expenseFormSchema(hasVehicles), input);
}

export function blankExpenseForm(today: string): ExpenseFormInput {
  return { date: today, amount: '', category: '', note: '', courierId: '', vehicleId: '', repeat: 'once', until: '', receipts: [] };
}

export function expenseFormOf(expense: ExpenseContent): ExpenseFormInput {
  return {
    date: expense.date,
    amount: penceToPounds(expense.amount),
    category: expense.category,
    note: expense.note,
    courierId: expense.courierId ?? '',
    vehicleId: vehicleChoiceOf(expense.vehicleId),
    repeat: expense.repeat,
    until: expense.repeatUntil ?? '',
    receipts: [...expense.receipts],
  };
}
