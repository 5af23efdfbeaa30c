// The two plans (spec §1). The role only changes labels and the house banner: no feature is
// gated by plan.
import { isPro } from './session/user';

/** Spec §9: Pro costs £4.99 per month. */
export const PRO_PRICE_PENCE = 499;

export const planFeatures = {
  free: ['Shows ads (a banner for Pro)', 'Basic features', 'Standard support'],
  pro: ['Ad-free', 'Premium features', 'Priority support'],
} as const;

export type Plan = keyof typeof planFeatures;

export function planOf(role: string): Plan {
  return isPro({ role }) ? 'pro' : 'free';
}

export const planLabel: Record<Plan, string> = { free: 'Free User', pro: 'Pro Member' };
