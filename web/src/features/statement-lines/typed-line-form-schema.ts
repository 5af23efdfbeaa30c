// A line typed from a paper or on-screen statement, as typed, to what is stored. The bounds are
// the server's statement line rules (the generated contract), so a slip is caught here beside
// its field, not parked after a push.
import { z } from '@/lib/zod';
import { formatPence } from '@/lib/format';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from '@/lib/text-rules';
import { readMoney } from '@/core/statement-lines/read-lines';
import { BOUNDS, lineTypeSchema, sizeBandSchema, type LineType, type SizeBand } from '@/sync/contract.generated';
import type { StatementLineContent } from '@/sync/types';

/** The quantity; the amount either way (paid, or taken back by a deduction or an adjustment); the reference's length. */
export const { maxQuantity: MAX_LINE_QUANTITY, maxAmountPence: MAX_LINE_AMOUNT_PENCE, maxReferenceChars: MAX_LINE_REFERENCE_CHARS } = BOUNDS.statementLine;

export const typedLineMessages = {
  date: 'Enter the day of the line.',
  quantity: `Quantity must be a whole number from 0 to ${MAX_LINE_QUANTITY}.`,
  amount: 'Enter the amount in pounds, e.g. 12.50 (a deduction may be written without a minus).',
  amountRange: `The amount must be at most ${formatPence(MAX_LINE_AMOUNT_PENCE)}.`,
  takesBack: 'Only a deduction or an adjustment takes money back.',
  reference: `The reference must be at most ${MAX_LINE_REFERENCE_CHARS} characters.`,
  referenceCharacters: forbiddenCharactersMessage('The reference'),
} as const;

/** The form's fields, named as the line's own so a refused line's problems land beside them. */
export interface TypedLineInput {
  date: string;
  lineType: LineType;
  /** A parcel line's size band; '' = none. */
  band: SizeBand | '';
  quantity: string;
  amount: string;
  reference: string;
}

/** What the form stores: the line without the check, courier and key the command adds. */
export type TypedLine = Omit<StatementLineContent, 'invoiceId' | 'courierId' | 'lineKey'>;

export function blankTypedLine(day: string): TypedLineInput {
  return { date: day, lineType: 'stop', band: '', quantity: '1', amount: '', reference: '' };
}

export const typedLineSchema = z
  .object({
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, typedLineMessages.date),
    lineType: lineTypeSchema(),
    band: z.union([sizeBandSchema(), z.literal('')]),
    quantity: z
      .string()
      .trim()
      .refine((text) => /^\d+$/.test(text) && Number(text) <= MAX_LINE_QUANTITY, typedLineMessages.quantity)
      .transform(Number),
    amount: z
      .string()
      .refine((text) => readMoney(text) !== null, typedLineMessages.amount)
      .transform((text) => readMoney(text) ?? 0)
      .refine((pence) => Math.abs(pence) <= MAX_LINE_AMOUNT_PENCE, typedLineMessages.amountRange),
    reference: z
      .string()
      .trim()
      .refine((text) => [...text].length <= MAX_LINE_REFERENCE_CHARS, typedLineMessages.reference)
      .refine((text) => !hasForbiddenCharacters(text), typedLineMessages.referenceCharacters),
  })
  .superRefine((value, context) => {
    // A deduction may be written without its minus; any other line taking money back is a slip.
    if (value.amount < 0 && value.lineType !== 'deduction' && value.lineType !== 'adjustment') {
      context.addIssue({ code: 'custom', path: ['amount'], message: typedLineMessages.takesBack });
    }
  })
  .transform(
    (value): TypedLine => ({
      date: value.date,
      lineType: value.lineType,
      band: value.lineType === 'parcel' && value.band !== '' ? value.band : null,
      quantity: value.quantity,
      rate: null,
      amount: value.lineType === 'deduction' ? -Math.abs(value.amount) : value.amount,
      reference: value.reference,
    }),
  );
