import { z } from 'zod';

/** Spec §5 "Login": the two phone sign-in validation messages. */
export const phoneMessages = {
  phoneFormat: 'The phone number is entered in international format with a country code',
  codeRequired: 'The verification code is required',
  codeFormat: 'The verification code has 6 digits',
} as const;

// What people type around the digits; the server accepts the same and stores `+` and digits.
const separators = /[\s().-]/g;

/** E.164: `+`, a country code (never starting with 0), 8 to 15 digits in all. */
export const phoneSchema = z
  .string()
  .trim()
  .refine((value) => /^\+[1-9]\d{7,14}$/.test(value.replace(separators, '')), phoneMessages.phoneFormat)
  .transform((value) => value.replace(separators, ''));

export const codeSchema = z
  .string()
  .trim()
  .min(1, phoneMessages.codeRequired)
  .regex(/^\d{6}$/, phoneMessages.codeFormat);

/** The number in E.164 form, or the message to show under the field. */
export function validatePhone(input: string): { ok: true; value: string } | { ok: false; error: string } {
  const result = phoneSchema.safeParse(input);
  return result.success ? { ok: true, value: result.data } : { ok: false, error: result.error.issues[0]?.message ?? phoneMessages.phoneFormat };
}

export function validateCode(input: string): { ok: true; value: string } | { ok: false; error: string } {
  const result = codeSchema.safeParse(input);
  return result.success ? { ok: true, value: result.data } : { ok: false, error: result.error.issues[0]?.message ?? phoneMessages.codeRequired };
}
