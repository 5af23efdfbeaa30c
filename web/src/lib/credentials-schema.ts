import { z } from 'zod';

// Loose on purpose (something@something.something, no spaces): the server has the last word.
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const credentialsSchema = z.object({
  email: z.string().trim().min(1, 'Email is required').regex(emailPattern, 'Invalid email address'),
  password: z.string().min(1, 'Password is required').min(6, 'Password should be at least 6 characters'),
  displayName: z
    .string()
    .trim()
    .transform((name) => name || undefined),
});

export type CredentialsInput = z.input<typeof credentialsSchema>;
export type Credentials = z.output<typeof credentialsSchema>;
export type CredentialsErrors = Partial<Record<keyof CredentialsInput, string>>;

/** The first problem of each field, which is the one worth fixing first. */
export function validateCredentials(
  input: CredentialsInput,
): { ok: true; value: Credentials } | { ok: false; errors: CredentialsErrors } {
  const result = credentialsSchema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const errors: CredentialsErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof CredentialsInput;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}
