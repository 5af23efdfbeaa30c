// The sign-in form's own checks, written out rather than as a zod schema: the login page is a
// first load (issue 15), and zod is ~26 KB of gzip JS. credentials-schema.test.ts holds this to
// the zod schema it replaced.

import { forbiddenCharactersMessage, hasForbiddenCharacters } from './text-rules';

// Loose on purpose (something@something.something, no spaces): the server has the last word.
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface CredentialsInput {
  email: string;
  password: string;
  displayName: string;
}

export interface Credentials {
  email: string;
  password: string;
  /** Blank means none. */
  displayName: string | undefined;
}

export type CredentialsErrors = Partial<Record<keyof CredentialsInput, string>>;

/** The first problem of each field, which is the one worth fixing first. */
export function validateCredentials(input: CredentialsInput): { ok: true; value: Credentials } | { ok: false; errors: CredentialsErrors } {
  const email = input.email.trim();
  const { password } = input;
  const errors: CredentialsErrors = {};
  if (email === '') errors.email = 'Email is required';
  else if (!emailPattern.test(email)) errors.email = 'Invalid email address';
  if (password === '') errors.password = 'Password is required';
  else if (password.length < 6) errors.password = 'Password should be at least 6 characters';
  const displayName = input.displayName.trim();
  if (hasForbiddenCharacters(displayName)) errors.displayName = forbiddenCharactersMessage('Display name');
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { email, password, displayName: displayName || undefined } };
}
