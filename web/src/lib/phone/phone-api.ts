import { z } from '@/lib/zod';
import { ApiError, request } from '@/lib/api';
import { apiPaths } from '@/lib/paths';
import { authResponseSchema, type AuthResponse } from '@/lib/session/user';
import { challengeSchema, solveCaptcha, type Solver } from './captcha';

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
