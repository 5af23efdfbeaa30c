import type { z } from 'zod';

/** The first message for each field that failed, keyed by field. */
export type FieldErrors<I> = Partial<Record<keyof I, string>>;

export type FormResult<I, O> = { ok: true; value: O } | { ok: false; errors: FieldErrors<I> };

/** Runs a form's schema over what was typed: the value to store, or what to fix, field by field. */
export function parseForm<I, O>(schema: z.ZodType<O, I>, input: I): FormResult<I, O> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const errors: FieldErrors<I> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof I;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}
