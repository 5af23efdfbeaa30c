import { z } from 'zod';
import { ApiError, request } from '@/lib/api';
import { apiPaths } from '@/lib/paths';
import { authResponseSchema, type AuthResponse } from '@/lib/session/user';
import { challengeSchema, solveCaptcha, type Solver } from './captcha';

const providersSchema = z.object({
  phone: z.boolean(),
  oidc: z.object({ label: z.string() }).nullable(),
  // The operator's switches (SIGNUPS_OPEN, GUESTS_ENABLED); a server from before them is open.
  signups: z.boolean().default(true),
  guests: z.boolean().default(true),
  // PHONE_DEFAULT_REGION: the country of numbers typed without a country code.
  phoneRegion: z.string().default('GB'),
});
export type Providers = z.infer<typeof providersSchema>;

/**
 * What the login page offers until the server answers (or when it cannot): the spec's own
 * buttons, none of the optional ones. A closed server still refuses with its own words.
 */
export const NO_OPTIONAL_PROVIDERS: Providers = { phone: false, oidc: null, signups: true, guests: true, phoneRegion: 'GB' };

/** Which sign-in methods the server offers; none of the optional ones if it cannot say. */
export async function fetchProviders(): Promise<Providers> {
  try {
    return await request(apiPaths.providers, { schema: providersSchema });
  } catch {
    return NO_OPTIONAL_PROVIDERS;
  }
}

const sentSchema = z.object({ verificationId: z.string().min(1) });

/**
 * Solves a fresh captcha, then asks the server to text a code; returns its verification id.
 * The server raises the difficulty while many codes are sent and refuses a challenge that has
 * become too easy meanwhile, so a refused captcha is retried once with a new challenge.
 */
export async function requestCode(phone: string, solve: Solver = solveCaptcha): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    const challenge = await request(apiPaths.phoneChallenge, { schema: challengeSchema });
    const captcha = await solve(challenge);
    try {
      const sent = await request(apiPaths.phoneSend, { method: 'POST', body: { phone, captcha }, schema: sentSchema });
      return sent.verificationId;
    } catch (error) {
      if (attempt >= 2 || !(error instanceof ApiError) || error.code !== 'captcha-failed') throw error;
    }
  }
}

/** Proves the number: signs in, or links it to the signed-in user (the server decides by session). */
export function verifyCode(verificationId: string, code: string): Promise<AuthResponse> {
  return request(apiPaths.phoneVerify, { method: 'POST', body: { verificationId, code }, schema: authResponseSchema });
}
