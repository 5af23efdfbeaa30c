// The shift clock (issue 26): "Start shift" and "End shift" record the times with one tap each,
// and fill the day's start and finish. Kept in localStorage on this device, one key per account:
// it is read synchronously on the first paint (so a running shift shows at once, offline too,
// with no flash of "Start shift"), it survives a reload, a closed tab and a phone restart, and
// it is a moment on this phone rather than a record: it becomes one (the day's times) only
// when the driver saves the day, and is never synced on its own. IndexedDB would add an async
// read and a schema version for two numbers. Unreadable storage (private mode) just means no clock.

import { formatTime } from '@/lib/format';
import { localDay } from '@/lib/week';

/** A shift running for longer than this was most likely left on: the clock offers to discard it. */
export const STALE_SHIFT_MS = 16 * 60 * 60 * 1000;

export interface ShiftState {
  /** When "Start shift" was tapped (ms since the epoch). */
  startedAt: number;
  /** When "End shift" was tapped, or null while the shift runs. */
  endedAt: number | null;
}

const keyOf = (userId: string) => `delivery-tracker:shift:${userId}`;

function isShift(value: unknown): value is ShiftState {
  if (typeof value !== 'object' || value === null) return false;
  const { startedAt, endedAt } = value as Record<string, unknown>;
  return Number.isSafeInteger(startedAt) && (endedAt === null || (Number.isSafeInteger(endedAt) && (endedAt as number) >= (startedAt as number)));
}

export function readShift(storage: Storage, userId: string): ShiftState | null {
  try {
    const raw = storage.getItem(keyOf(userId));
    if (raw === null) return null;
    const parsed: unknown = JSON.parse(raw);
    return isShift(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function write(storage: Storage, userId: string, shift: ShiftState | null): ShiftState | null {
  try {
    if (shift === null) storage.removeItem(keyOf(userId));
    else storage.setItem(keyOf(userId), JSON.stringify(shift));
  } catch {
    // Storage full or blocked: the clock shows the state for this visit only.
  }
  return shift;
}

/** Starts a shift now, replacing an ended one that was never saved into a day. */
export function startShift(storage: Storage, userId: string, now: number): ShiftState {
  return write(storage, userId, { startedAt: now, endedAt: null })!;
}

/** Ends the running shift now; an ended shift stays as it was (a second tap changes nothing). */
export function endShift(storage: Storage, userId: string, now: number): ShiftState | null {
  const shift = readShift(storage, userId);
  if (!shift || shift.endedAt !== null) return shift;
  return write(storage, userId, { ...shift, endedAt: Math.max(now, shift.startedAt) });
}

/** Forgets the shift: discarded by the driver, or saved into a day. */
export function clearShift(storage: Storage, userId: string): null {
  write(storage, userId, null);
  return null;
}

const localDateOf = (ms: number) => localDay(new Date(ms));

export interface ShiftTimes {
  /** The day the shift belongs to: the day it started, also when it ends after midnight. */
  date: string;
  startTime: string;
  /** Null while the shift runs. */
  finishTime: string | null;
  /** It ended on a later calendar day (the day's hours count across midnight). */
  crossesMidnight: boolean;
}

/** What a shift fills into the day form. */
export function shiftTimes(shift: ShiftState): ShiftTimes {
  return {
    date: localDateOf(shift.startedAt),
    startTime: formatTime(shift.startedAt),
    finishTime: shift.endedAt === null ? null : formatTime(shift.endedAt),
    crossesMidnight: shift.endedAt !== null && localDateOf(shift.endedAt) !== localDateOf(shift.startedAt),
  };
}

/** A shift running (or lasting) longer than any real one: most likely a start left on. */
export function isStale(shift: ShiftState, now: number): boolean {
  return (shift.endedAt ?? now) - shift.startedAt > STALE_SHIFT_MS;
}
