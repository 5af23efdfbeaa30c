// "Hide for a week" on the Pro banner, remembered on this device (localStorage: it is how this
// screen looks, not data to sync; the same rule as a dismissed reminder). Unreadable storage
// simply shows the banner.

const KEY = 'delivery-tracker:pro-banner-hidden-until';
export const BANNER_SNOOZE_MS = 7 * 86_400_000;

/** Whether the banner is hidden at `now` (epoch ms). */
export function isBannerSnoozed(storage: Storage, now: number): boolean {
  try {
    const until = Number(storage.getItem(KEY));
    return Number.isFinite(until) && until > now;
  } catch {
    return false;
  }
}

/** Hides the banner until a week after `now`. */
export function snoozeBanner(storage: Storage, now: number): void {
  try {
    storage.setItem(KEY, String(now + BANNER_SNOOZE_MS));
  } catch {
    // Storage full or blocked: hidden for this visit only.
  }
}
