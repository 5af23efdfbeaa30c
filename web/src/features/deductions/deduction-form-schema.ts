// The deduction form, as typed, to what is stored. Bounds are the server's deduction rules
// (the generated contract) so a typo is caught here, not parked after a push. What
// a deduction is for is one of the expense categories (van hire is a vehicle cost), so it lands
// in the same SA103 box as the same cost paid directly, and a vehicle cost says its vehicle.
import { z } from '@/lib/zod';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from '@/lib/text-rules';
import { parseForm, type FieldErrors, type FormResult } from '@/lib/form';
import { parsePounds, penceToPounds } from '@/core/money/money';
import { EXPENSE_CATEGORY_IDS } from '@/core/tax/expense-categories';
import { asksForVehicle, vehicleChoiceOf, vehicleChoiceProblem, vehicleIdOf } from '@/core/tax/vehicle-choice';
import { formatPence } from '@/lib/format';
import { BOUNDS } from '@/sync/contract.generated';
import type { DeductionContent, DeductionRepeat, ExpenseCategory } from '@/sync/types';

/** The label's length, and the most a charge can be (£10,000: only a typo goes above it). */
export const { maxLabelChars: MAX_LABEL_CHARS, maxAmountPence: MAX_AMOUNT_PENCE } = BOUNDS.deduction;

export const deductionMessages = {
  label: 'Please enter its name on the statement, e.g. Van hire',
  labelLength: `The label must be at most ${MAX_LABEL_CHARS} characters`,
  labelControl: forbiddenCharactersMessage('The label'),
  amountRequired: 'Please enter the amount',
  amountFormat: 'Enter the amount in pounds and pence, e.g. 185.00',
  amountRange: `The amount must be from £0.01 to ${formatPence(MAX_AMOUNT_PENCE)}`,
  from: 'Please enter the day it is charged',
  firstFrom: 'Please enter the day of the first charge',
  to: 'The last charge must be on or after the first',
  purpose: 'Please choose what the deduction is for',
} as const;

export interface DeductionFormInput {
  label: string;
  amount: string;
  repeat: DeductionRepeat;
  from: string;
  /** Recurring only; '' = ongoing. */
  to: string;
  /** '' until the driver picks one. */
  purpose: ExpenseCategory | '';
  /** A vehicle id, NO_VEHICLE, or '' (not chosen). */
  vehicleId: string;
}

export type DeductionFormErrors = FieldErrors<DeductionFormInput>;
export type DeductionFields = Omit<DeductionContent, 'courierId'>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The form's rules; with `hasVehicles`, a vehicle cost must say which vehicle (or No vehicle). */
export function deductionFormSchema(hasVehicles: boolean) {
  return z
    .object({
      label: z
        .string()
        .trim()
        .min(1, deductionMessages.label)
        .refine((text) => [...text].length <= MAX_LABEL_CHARS, deductionMessages.labelLength)
        .refine((text) => !hasForbiddenCharacters(text), deductionMessages.labelControl),
      amount: z
        .string()
        .trim()
        .min(1, deductionMessages.amountRequired)
        .refine((text) => parsePounds(text) !== null, deductionMessages.amountFormat)
        .transform((text) => parsePounds(text) ?? 0)
        .refine((pence) => pence >= 1 && pence <= MAX_AMOUNT_PENCE, deductionMessages.amountRange),
      repeat: z.enum(['once', 'weekly', 'monthly']),
      from: z.string(),
      to: z.string(),
      purpose: z.enum(EXPENSE_CATEGORY_IDS, { error: deductionMessages.purpose }),
      vehicleId: z.string(),
    })
    .superRefine((value, context) => {
      const vehicleProblem = vehicleChoiceProblem(value.vehicleId, asksForVehicle(value.purpose, hasVehicles));
      if (vehicleProblem) context.addIssue({ code: 'custom', path: ['vehicleId'], message: vehicleProblem });
      if (!DAY.test(value.from)) {
        context.addIssue({ code: 'custom', path: ['from'], message: value.repeat === 'once' ? deductionMessages.from : deductionMessages.firstFrom });
      } else if (value.repeat !== 'once' && DAY.test(value.to) && value.to < value.from) {
        context.addIssue({ code: 'custom', path: ['to'], message: deductionMessages.to });
      }
    })
    .transform(
      (value): DeductionFields => ({
        label: value.label,
        amount: value.amount,
        repeat: value.repeat,
        from: value.from,
        // A one-off has no end; a recurring one with no end date is ongoing.
        to: value.repeat === 'once' || !DAY.test(value.to) ? null : value.to,
        purpose: value.purpose,
        vehicleId: vehicleIdOf(value.vehicleId),
      }),
    );
}

export function validateDeductionForm(input: DeductionFormInput, hasVehicles = false): FormResult<DeductionFormInput, DeductionFields> {
  return parseForm(deductionFormSchema(hasVehicles), input);
}

export function blankDeductionForm(today: string): DeductionFormInput {
  return { label: '', amount: '', repeat: 'weekly', from: today, to: '', purpose: '', vehicleId: '' };
}

/** A stored deduction as the form shows it; one saved before it could say what it is for asks now. */
export function deductionFormOf(deduction: DeductionContent): DeductionFormInput {
  return {
    label: deduction.label,
    amount: penceToPounds(deduction.amount),
    repeat: deduction.repeat,
    from: deduction.from,
    to: deduction.to ?? '',
    purpose: deduction.purpose ?? '',
    vehicleId: vehicleChoiceOf(deduction.vehicleId),
  };
}
