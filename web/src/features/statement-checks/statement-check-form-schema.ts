// The statement check form, as typed, to what is stored. Bounds are the server's (the generated
// contract's, from crates/domain/src/statement_check.rs) so a typo is caught here, not parked
// after a push.
import { z } from '@/lib/zod';
import { parseForm, type FieldErrors, type FormResult } from '@/lib/form';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from '@/lib/text-rules';
import { parsePounds, penceToPounds } from '@/core/money/money';
import type { PayPeriod } from '@/core/pay-periods/pay-period';
import { addDays } from '@/lib/week';
import { formatPence } from '@/lib/format';
import { BOUNDS } from '@/sync/contract.generated';
import type { StatementCheckContent, StatementStatus } from '@/sync/types';

export const {
  maxPeriodDays: MAX_PERIOD_DAYS,
  maxPaidPence: MAX_PAID_PENCE,
  maxStops: MAX_STATEMENT_STOPS,
  maxReferenceChars: MAX_REFERENCE_CHARS,
  maxItems: MAX_STATEMENT_COUNT,
  maxNoteChars: MAX_NOTE_CHARS,
} = BOUNDS.invoice;
/** The statement's deductions are held to the same ceiling as what it paid (the server's rule). */
export const MAX_DEDUCTIONS_PENCE = MAX_PAID_PENCE;

/**
 * The driver's own follow-up of a check, apart from what the comparison finds ("Matches",
 * "£19.68 short"): the stored values keep their names, the words are the driver's.
 */
export const STATUSES: readonly { value: StatementStatus; label: string }[] = [
  { value: 'unchecked', label: 'Not followed up' },
  { value: 'matches', label: 'Accepted' },
  { value: 'disputed', label: 'Disputed' },
  { value: 'resolved', label: 'Resolved' },
];

export function statusLabel(status: StatementStatus): string {
  return STATUSES.find((s) => s.value === status)?.label ?? status;
}

export const statementCheckMessages = {
  periodStart: 'Please enter the first day of the statement',
  periodEnd: 'Please enter the last day of the statement',
  order: 'The last day must be on or after the first day',
  length: `A statement can cover at most ${MAX_PERIOD_DAYS} days`,
  paidRequired: 'Please enter the net amount paid, after deductions',
  paidFormat: 'Enter the amount in pounds and pence, e.g. 512.40',
  paidRange: `The amount paid must be at most ${formatPence(MAX_PAID_PENCE)}`,
  stops: `Stops must be a whole number from 0 to ${MAX_STATEMENT_STOPS.toLocaleString('en-GB')}`,
  reference: `The reference must be at most ${MAX_REFERENCE_CHARS} characters`,
  referenceCharacters: forbiddenCharactersMessage('The reference'),
  parcels: `Parcels must be a whole number from 0 to ${MAX_STATEMENT_COUNT.toLocaleString('en-GB')}`,
  collections: `Collections must be a whole number from 0 to ${MAX_STATEMENT_COUNT.toLocaleString('en-GB')}`,
  deductionsFormat: 'Enter the deductions in pounds and pence, e.g. 195.00',
  deductionsRange: `Deductions must be at most ${formatPence(MAX_DEDUCTIONS_PENCE)}`,
  status: 'Please choose a status',
  note: `The note must be at most ${MAX_NOTE_CHARS.toLocaleString('en-GB')} characters`,
  noteCharacters: forbiddenCharactersMessage('The note'),
  saved: 'Statement check saved',
} as const;

export interface StatementCheckFormInput {
  periodStart: string;
  periodEnd: string;
  paid: string;
  stops: string;
  reference: string;
  parcels: string;
  collections: string;
  deductions: string;
  status: StatementStatus;
  note: string;
}

export type StatementCheckFormErrors = FieldErrors<StatementCheckFormInput>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A count the statement may leave out: blank is null. */
function optionalCount(message: string) {
  return z
    .string()
    .trim()
    .refine((text) => text === '' || (/^\d+$/.test(text) && Number(text) <= MAX_STATEMENT_COUNT), message)
    .transform((text) => (text === '' ? null : Number(text)));
}

export const statementCheckFormSchema = z
  .object({
    periodStart: z.string().regex(DAY, statementCheckMessages.periodStart),
    periodEnd: z.string().regex(DAY, statementCheckMessages.periodEnd),
    paid: z
      .string()
      .trim()
      .min(1, statementCheckMessages.paidRequired)
      .refine((text) => parsePounds(text) !== null, statementCheckMessages.paidFormat)
      .transform((text) => parsePounds(text) ?? 0)
      .refine((pence) => pence <= MAX_PAID_PENCE, statementCheckMessages.paidRange),
    stops: z
      .string()
      .trim()
      .refine((text) => text === '' || (/^\d+$/.test(text) && Number(text) <= MAX_STATEMENT_STOPS), statementCheckMessages.stops)
      .transform((text) => (text === '' ? null : Number(text))),
    reference: z
      .string()
      .trim()
      .refine((text) => [...text].length <= MAX_REFERENCE_CHARS, statementCheckMessages.reference)
      .refine((text) => !hasForbiddenCharacters(text), statementCheckMessages.referenceCharacters),
    parcels: optionalCount(statementCheckMessages.parcels),
    collections: optionalCount(statementCheckMessages.collections),
    deductions: z
      .string()
      .trim()
      .refine((text) => text === '' || parsePounds(text) !== null, statementCheckMessages.deductionsFormat)
      .transform((text) => (text === '' ? null : (parsePounds(text) ?? 0)))
      .refine((pence) => pence === null || pence <= MAX_DEDUCTIONS_PENCE, statementCheckMessages.deductionsRange),
    status: z.enum(['unchecked', 'matches', 'disputed', 'resolved'], statementCheckMessages.status),
    note: z
      .string()
      .trim()
      .refine((text) => [...text].length <= MAX_NOTE_CHARS, statementCheckMessages.note)
      .refine((text) => !hasForbiddenCharacters(text, true), statementCheckMessages.noteCharacters),
  })
  .superRefine((value, context) => {
    // Zod runs this even when a day failed its own check; compare only two real days.
    if (!DAY.test(value.periodStart) || !DAY.test(value.periodEnd)) return;
    if (value.periodEnd < value.periodStart) {
      context.addIssue({ code: 'custom', path: ['periodEnd'], message: statementCheckMessages.order });
    } else if (addDays(value.periodStart, MAX_PERIOD_DAYS - 1) < value.periodEnd) {
      context.addIssue({ code: 'custom', path: ['periodEnd'], message: statementCheckMessages.length });
    }
  });

/** What the form stores: everything but the courier, which the period being checked gives. */
export type StatementFormValue = Omit<StatementCheckContent, 'courierId'>;

export function validateStatementCheckForm(input: StatementCheckFormInput): FormResult<StatementCheckFormInput, StatementFormValue> {
  return parseForm(statementCheckFormSchema, input);
}

/** The form for a new check of one pay period: only its days are filled in. */
export function blankStatementCheckForm(period: PayPeriod): StatementCheckFormInput {
  return {
    periodStart: period.start,
    periodEnd: period.end,
    paid: '',
    stops: '',
    reference: '',
    parcels: '',
    collections: '',
    deductions: '',
    status: 'unchecked',
    note: '',
  };
}

const countText = (count: number | null) => (count === null ? '' : String(count));

export function statementCheckFormOf(check: StatementCheckContent): StatementCheckFormInput {
  return {
    periodStart: check.periodStart,
    periodEnd: check.periodEnd,
    paid: penceToPounds(check.paid),
    stops: countText(check.stops),
    reference: check.reference,
    parcels: countText(check.parcels),
    collections: countText(check.collections),
    deductions: check.deductions === null ? '' : penceToPounds(check.deductions),
    status: check.status,
    note: check.note,
  };
}
