import { z } from '@/lib/zod';

/** Spec §5 "Login": the phone sign-in validation messages (numbers: ./phone-number). */
export const phoneMessages = {
  phoneFormat: 'The phone number is entered in international format with a country code',
  codeRequired: 'The verification code is required',
  codeFormat: 'The verification code has 6 digits',
} as const;

export const codeSchema = z
  .string()
  .trim()
  .min(1, phoneMessages.codeRequired)
  .regex(/^\d{6}$/, phoneMessages.codeFormat);

export function validateCode(input: string): { ok: true; value: string } | { ok: false; error: string } {
  const result = codeSchema.safeParse(input);
  return result.success ? { ok: true, value: result.data } : { ok: false, error: result.error.issues[0]?.message ?? phoneMessages.codeRequired };
}
