// A dismissed reminder stays hidden for 7 days, on this device, per user (localStorage: the
// choice is about this screen, not data to sync). Unreadable storage simply shows everything.
import type { ReminderKind } from '@/core/reminders/reminders';

export const DISMISS_MS = 7 * 86_400_000;

export function dismissalKey(userId: string): string {
  return `dt-reminders-dismissed:${userId}`;
}

type Dismissals = Partial<Record<ReminderKind, number>>;

function read(storage: Storage, userId: string): Dismissals {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(dismissalKey(userId)) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Dismissals) : {};
  } catch {
    return {};
  }
}

/** The kinds hidden at `now` (epoch ms). */
export function dismissedKinds(storage: Storage, userId: string, now: number): Set<ReminderKind> {
  const kinds = Object.entries(read(storage, userId)).filter(([, until]) => typeof until === 'number' && until > now);
  return new Set(kinds.map(([kind]) => kind as ReminderKind));
}

/** Hides `kind` until 7 days after `now`; dismissals that ran out are dropped. */
export function dismissReminder(storage: Storage, userId: string, kind: ReminderKind, now: number): void {
  const kept = Object.fromEntries(Object.entries(read(storage, userId)).filter(([, until]) => typeof until === 'number' && until > now));
  try {
    storage.setItem(dismissalKey(userId), JSON.stringify({ ...kept, [kind]: now + DISMISS_MS }));
  } catch {
    // Storage full or blocked: the reminder shows again, which loses nothing.
  }
}
