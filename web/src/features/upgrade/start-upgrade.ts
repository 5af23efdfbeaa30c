// What "Upgrade to Pro" does, in one place. The server opens a checkout when the operator has
// configured a payment provider; otherwise (404 billing-disabled, or a server without billing)
// plans are set by the operator (`delivery-tracker users set-plan EMAIL pro`), and the driver
// is told whom to ask. The button is never dead.
import { z } from '@/lib/zod';
import { ApiError, request } from '@/lib/api';
import { apiPaths } from '@/lib/paths';

export type UpgradeStep = { kind: 'checkout'; url: string } | { kind: 'explain'; title: string; message: string };

export const upgradeMessages = {
  askOperator: {
    title: 'Ask your operator to switch you to Pro',
    message:
      'Plans on this Delivery Tracker are managed by the person or company that runs it. Ask them to switch your account to Pro: it takes effect at once, on all your devices.',
  },
  alreadyPro: { title: 'You are already on Pro', message: 'Your plan will show as Pro once this device has synced.' },
  offline: { title: 'Upgrading needs a connection', message: 'You are offline. Try again when you have signal.' },
  failed: { title: 'Checkout is not available right now', message: 'Please try again later.' },
} as const;

const checkoutSchema = z.object({ url: z.string().url() });

export async function startUpgrade(): Promise<UpgradeStep> {
  try {
    const { url } = await request(apiPaths.checkout, { method: 'POST', schema: checkoutSchema });
    return { kind: 'checkout', url };
  } catch (error) {
    const code = error instanceof ApiError ? error.code : 'unknown';
    const status = error instanceof ApiError ? error.status : 0;
    if (code === 'billing-disabled' || status === 404) return { kind: 'explain', ...upgradeMessages.askOperator };
    if (code === 'already-pro') return { kind: 'explain', ...upgradeMessages.alreadyPro };
    if (code === 'network') return { kind: 'explain', ...upgradeMessages.offline };
    return { kind: 'explain', ...upgradeMessages.failed };
  }
}

/** Leaves the app for the provider's checkout page (it returns to the app when done). */
export function openCheckout(url: string): void {
  window.location.assign(url);
}
