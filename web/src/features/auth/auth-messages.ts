import { isApiError } from '@/lib/api';

export type AuthAction = 'sign-up' | 'login';

/** Spec §8 "Auth fallbacks": used when the server gives no message (e.g. the network failed). */
const fallbacks: Record<AuthAction, string> = {
  'sign-up': 'Failed to create account',
  login: 'Failed to login',
};

/** Spec §8 "Login errors", keyed by our server's codes (docs/api.md). */
const fixedMessages: Record<string, string> = {
  'email-already-in-use': 'This email is already registered',
  'invalid-email': 'Invalid email address',
  'invalid-credentials': 'Invalid email or password',
};

export function authErrorMessage(error: unknown, action: AuthAction): string {
  if (!isApiError(error)) return fallbacks[action];
  const fixed = fixedMessages[error.code];
  if (fixed) return fixed;
  // weak-password: the server explains (too short, or a common password); its short-password
  // text is the spec's own. rate-limited and anything else: the server's own message too.
  if (error.message) return error.message;
  if (error.code === 'weak-password') return 'Password should be at least 6 characters';
  return fallbacks[action];
}
