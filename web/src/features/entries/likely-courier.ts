// Which courier today's day is most likely for (issue 26), so the dashboard's "Today" opens on
// the right card's fields: a driver on DPD Mondays and Evri Saturdays gets Evri's parcels on a
// Saturday without choosing.
import type { LocalCourier } from '@/sync/types';
import { lastUsedCourierId } from '@/core/pay/day-pricing';

type Day = { courierId: string; date: string; updatedAt: string; deleted?: 0 | 1 };

/** The weekday (0 = Sunday) of a YYYY-MM-DD date, read as a calendar day (no time zone). */
function weekdayOf(date: string): number {
  return new Date(`${date}T12:00:00Z`).getUTCDay();
}

/**
 * The courier of the latest day (by date, then by when it was saved) logged on `today`'s
 * weekday for a courier that still exists; else the last used courier (day-pricing.ts).
 */
export function likelyCourierId(entries: readonly Day[], couriers: readonly Pick<LocalCourier, 'id'>[], userId: string, today: string): string {
  const live = new Set(couriers.map((courier) => courier.id));
  const weekday = weekdayOf(today);
  let latest: Day | null = null;
  for (const entry of entries) {
    if (entry.deleted || !live.has(entry.courierId) || weekdayOf(entry.date) !== weekday) continue;
    if (!latest || entry.date > latest.date || (entry.date === latest.date && entry.updatedAt > latest.updatedAt)) latest = entry;
  }
  return latest ? latest.courierId : lastUsedCourierId(entries, couriers, userId);
}
