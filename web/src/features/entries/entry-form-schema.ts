import { z } from 'zod';
import { parseForm, type FieldErrors, type FormResult } from '@/lib/form';
import { parsePounds } from '@/lib/money';

// Server bounds (crates/domain/src/entry.rs), checked here too so a typo never reaches the
// outbox only to be parked later.
export const MAX_STOPS = 1_000;
export const MAX_EXTRA_PENCE = 1_000_000;
export const MAX_NOTES_CHARS = 1_000;

export const entryMessages = {
  date: 'Please enter a date',
  stopsRequired: 'Please enter number of stops',
  stopsWhole: `Stops must be a whole number from 0 to ${MAX_STOPS}`,
  extraFormat: 'Enter extra pay in pounds and pence, e.g. 12.50',
  extraRange: 'Extra must be between £0.00 and £10,000.00',
  notes: `Notes must be at most ${MAX_NOTES_CHARS} characters`,
  saved: 'Entry saved successfully!',
  failed: 'Failed to save entry',
} as const;

/**
 * The entry form's fields as typed, to what is stored. Extra is pounds with at most two
 * decimal places: "12.345" is refused (not rounded), because silently changing money a
 * driver typed is worse than asking again; the input's step of 0.01 says the same.
 */
export const entryFormSchema = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, entryMessages.date),
  stops: z
    .string()
    .trim()
    .min(1, entryMessages.stopsRequired)
    .regex(/^\d+$/, entryMessages.stopsWhole)
    .transform(Number)
    .refine((stops) => stops <= MAX_STOPS, entryMessages.stopsWhole),
  extra: z
    .string()
    .trim()
    .refine((text) => text === '' || parsePounds(text) !== null, entryMessages.extraFormat)
    .transform((text) => (text === '' ? 0 : (parsePounds(text) ?? 0)))
    .refine((pence) => pence <= MAX_EXTRA_PENCE, entryMessages.extraRange),
  notes: z.string().trim().max(MAX_NOTES_CHARS, entryMessages.notes),
});

export type EntryFormInput = z.input<typeof entryFormSchema>;
export type EntryFormValue = z.output<typeof entryFormSchema>;
export type EntryFormErrors = FieldErrors<EntryFormInput>;

export function validateEntryForm(input: EntryFormInput): FormResult<EntryFormInput, EntryFormValue> {
  return parseForm(entryFormSchema, input);
}

/** Why a local save failed, in words a driver can act on. */
export function saveFailureMessage(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  // Dexie wraps the browser's error; its inner name says what happened.
  const inner = (error as { inner?: { name?: string } } | null)?.inner?.name ?? '';
  if (name === 'QuotaExceededError' || inner === 'QuotaExceededError') {
    return `${entryMessages.failed}: this device has run out of storage space`;
  }
  return entryMessages.failed;
}
