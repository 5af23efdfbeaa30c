import { isApiError } from '@/lib/api';

export type PhoneAction = 'send' | 'verify';

/** When the server gives no message (the network failed): spec §8 fallbacks in spirit. */
const fallbacks: Record<PhoneAction, string> = {
  send: 'Failed to send the code. Please try again.',
  verify: 'Failed to login',
};

/**
 * The server's messages are written for people (docs/api.md "Phone sign-in"): a wrong or
 * expired code, a failed security check, a wait before the next code, a number that belongs
 * to another account. Anything without one falls back.
 */
export function phoneErrorMessage(error: unknown, action: PhoneAction): string {
  if (isApiError(error) && error.message) return error.message;
  return fallbacks[action];
}
