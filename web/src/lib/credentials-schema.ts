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

/** Spec §5 "Login": password minimum is 6 characters. */
export const MIN_PASSWORD = 6;

/**
 * Why a password cannot be sent, in the spec's words; undefined when it can. Only the spec's
 * checks, so a form answers at once offline: every other rule (the common-password list, the
 * account's own e-mail, the app's name) is the server's, which answers with the reason on the
 * password field.
 */
export function passwordProblem(password: string): string | undefined {
  if (password === '') return 'Password is required';
  if (password.length < MIN_PASSWORD) return 'Password should be at least 6 characters';
  return undefined;
}

/** The first problem of each field, which is the one worth fixing first. */
export function validateCredentials(input: CredentialsInput): { ok: true; value: Credentials } | { ok: false; errors: CredentialsErrors } {
  const email = input.email.trim();
  const { password } = input;
  const errors: CredentialsErrors = {};
  if (email === '') errors.email = 'Email is required';
  else if (!emailPattern.test(email)) errors.email = 'Invalid email address';
  const badPassword = passwordProblem(password);
  if (badPassword !== undefined) errors.password = badPassword;
  const displayName = input.displayName.trim();
  if (hasForbiddenCharacters(displayName)) errors.displayName = forbiddenCharactersMessage('Display name');
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { email, password, displayName: displayName || undefined } };
}
