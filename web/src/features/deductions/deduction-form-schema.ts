// The deduction form, as typed, to what is stored. Bounds match the server's deduction rules
// (the issue-12 contract) so a typo is caught here, not parked after a push.
import { z } from '@/lib/zod';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from '@/lib/text-rules';
import { parseForm, type FieldErrors, type FormResult } from '@/lib/form';
import { parsePounds, penceToPounds } from '@/lib/money';
import type { DeductionContent, DeductionRepeat } from '@/sync/types';

export const MAX_LABEL_CHARS = 60;
/** £10,000 a charge: only a typo goes above it. */
export const MAX_AMOUNT_PENCE = 1_000_000;

export const deductionMessages = {
  label: 'Please say what the deduction is, e.g. Van hire',
  labelLength: `The label must be at most ${MAX_LABEL_CHARS} characters`,
  labelControl: forbiddenCharactersMessage('The label'),
  amountRequired: 'Please enter the amount',
  amountFormat: 'Enter the amount in pounds and pence, e.g. 185.00',
  amountRange: 'The amount must be from £0.01 to £10,000.00',
  from: 'Please enter the day it is charged',
  firstFrom: 'Please enter the day of the first charge',
  to: 'The last charge must be on or after the first',
} as const;

export interface DeductionFormInput {
  label: string;
  amount: string;
  repeat: DeductionRepeat;
  from: string;
  /** Recurring only; '' = ongoing. */
  to: string;
}

export type DeductionFormErrors = FieldErrors<DeductionFormInput>;
export type DeductionFields = Omit<DeductionContent, 'courierId'>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const deductionFormSchema = z
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
  })
  .superRefine((value, context) => {
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
    }),
  );

export function validateDeductionForm(input: DeductionFormInput): FormResult<DeductionFormInput, DeductionFields> {
  return parseForm(deductionFormSchema, input);
}

export function blankDeductionForm(today: string): DeductionFormInput {
  return { label: '', amount: '', repeat: 'weekly', from: today, to: '' };
}

export function deductionFormOf(deduction: DeductionContent): DeductionFormInput {
  return { label: deduction.label, amount: penceToPounds(deduction.amount), repeat: deduction.repeat, from: deduction.from, to: deduction.to ?? '' };
}
