// The invoice check form, as typed, to what is stored. Bounds match the server
// (crates/domain/src/invoice.rs) so a typo is caught here, not parked after a push.
import { z } from 'zod';
import { parseForm, type FieldErrors, type FormResult } from '@/lib/form';
import { parsePounds, penceToPounds } from '@/lib/money';
import { addDays } from '@/lib/week';
import type { InvoiceContent } from '@/sync/types';

export const MAX_PERIOD_DAYS = 366;
export const MAX_PAID_PENCE = 10_000_000;
export const MAX_STATEMENT_STOPS = 100_000;
export const MAX_REFERENCE_CHARS = 100;

export const invoiceMessages = {
  periodStart: 'Please enter the first day of the statement',
  periodEnd: 'Please enter the last day of the statement',
  order: 'The last day must be on or after the first day',
  length: `A statement can cover at most ${MAX_PERIOD_DAYS} days`,
  paidRequired: 'Please enter the amount paid',
  paidFormat: 'Enter the amount in pounds and pence, e.g. 512.40',
  paidRange: 'The amount paid must be at most £100,000.00',
  stops: `Stops must be a whole number from 0 to ${MAX_STATEMENT_STOPS.toLocaleString('en-GB')}`,
  reference: `The reference must be at most ${MAX_REFERENCE_CHARS} characters`,
  saved: 'Invoice check saved',
} as const;

export interface InvoiceFormInput {
  periodStart: string;
  periodEnd: string;
  paid: string;
  stops: string;
  reference: string;
}

export type InvoiceFormErrors = FieldErrors<InvoiceFormInput>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const invoiceFormSchema = z
  .object({
    periodStart: z.string().regex(DAY, invoiceMessages.periodStart),
    periodEnd: z.string().regex(DAY, invoiceMessages.periodEnd),
    paid: z
      .string()
      .trim()
      .min(1, invoiceMessages.paidRequired)
      .refine((text) => parsePounds(text) !== null, invoiceMessages.paidFormat)
      .transform((text) => parsePounds(text) ?? 0)
      .refine((pence) => pence <= MAX_PAID_PENCE, invoiceMessages.paidRange),
    stops: z
      .string()
      .trim()
      .refine((text) => text === '' || (/^\d+$/.test(text) && Number(text) <= MAX_STATEMENT_STOPS), invoiceMessages.stops)
      .transform((text) => (text === '' ? null : Number(text))),
    reference: z.string().trim().refine((text) => [...text].length <= MAX_REFERENCE_CHARS, invoiceMessages.reference),
  })
  .superRefine((value, context) => {
    // Zod runs this even when a day failed its own check; compare only two real days.
    if (!DAY.test(value.periodStart) || !DAY.test(value.periodEnd)) return;
    if (value.periodEnd < value.periodStart) {
      context.addIssue({ code: 'custom', path: ['periodEnd'], message: invoiceMessages.order });
    } else if (addDays(value.periodStart, MAX_PERIOD_DAYS - 1) < value.periodEnd) {
      context.addIssue({ code: 'custom', path: ['periodEnd'], message: invoiceMessages.length });
    }
  });

export function validateInvoiceForm(input: InvoiceFormInput): FormResult<InvoiceFormInput, Pick<InvoiceContent, 'periodStart' | 'periodEnd' | 'paid' | 'stops' | 'reference'>> {
  return parseForm(invoiceFormSchema, input);
}

/** The form for a new check: last week (Sunday to Saturday), the most common statement. */
export function blankInvoiceForm(lastWeekStart: string): InvoiceFormInput {
  return { periodStart: lastWeekStart, periodEnd: addDays(lastWeekStart, 6), paid: '', stops: '', reference: '' };
}

export function invoiceFormOf(check: InvoiceContent): InvoiceFormInput {
  return {
    periodStart: check.periodStart,
    periodEnd: check.periodEnd,
    paid: penceToPounds(check.paid),
    stops: check.stops === null ? '' : String(check.stops),
    reference: check.reference,
  };
}
