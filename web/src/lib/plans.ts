// The two plans (spec §1). The role only changes labels and the house banner: no feature is
// gated by plan, so the plans page says so rather than promise "premium features". An operator
// can turn plans off altogether (PLANS_ENABLED=false, told with the signed-in user).
import { isPro, type User } from './session/user';

/** Spec §9: Pro costs £4.99 per month. */
export const PRO_PRICE_PENCE = 499;

/** Exactly what each plan gives: Pro removes the banner, and that is all. */
export const planFeatures = {
  free: ['Every feature: pay, statement checks, spending, mileage, the tax year', 'Shows ads: a small banner for Pro, which you can hide for a week'],
  pro: ['Every feature, the same as Free', 'Ad-free: no banner'],
} as const;

/** Whether this server has plans at all; a server from before the setting always had. */
export function plansOn(user: Pick<User, 'plansEnabled'> | null | undefined): boolean {
  return user?.plansEnabled ?? true;
}

export type Plan = keyof typeof planFeatures;

export function planOf(role: string): Plan {
  return isPro({ role }) ? 'pro' : 'free';
}

export const planLabel: Record<Plan, string> = { free: 'Free User', pro: 'Pro Member' };
