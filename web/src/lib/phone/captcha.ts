import { solveChallenge } from 'altcha-lib/v1';
import { z } from '@/lib/zod';

/** The server's ALTCHA v1 challenge (GET /api/v1/auth/phone/challenge). */
export const challengeSchema = z.object({
  algorithm: z.string(),
  challenge: z.string(),
  maxnumber: z.number().int().positive(),
  salt: z.string(),
  signature: z.string(),
});
export type Challenge = z.infer<typeof challengeSchema>;

export interface CaptchaSolution {
  algorithm: string;
  challenge: string;
  number: number;
  salt: string;
  signature: string;
}

export type Solver = (challenge: Challenge) => Promise<CaptchaSolution>;

/**
 * The invisible captcha: brute-forces the proof of work with Web Crypto (a few hundred ms on a
 * phone at the default difficulty). No widget: nobody has to tick or pick anything.
 */
export const solveCaptcha: Solver = async (challenge) => {
  const { promise } = solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber);
  const solution = await promise;
  if (!solution) throw new Error('captcha unsolvable');
  return {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number: solution.number,
    salt: challenge.salt,
    signature: challenge.signature,
  };
};
