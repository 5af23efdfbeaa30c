import { useEffect, useState } from 'react';
import type { SyncStatus } from '@/sync/status';

/** Spec §9: the badge hides by itself 3 s after reaching synced. */
export const BADGE_HIDE_AFTER_SYNCED_MS = 3_000;

/**
 * Whether a status change brings the badge up. Every change does (spec), except the quiet
 * round trip of a device that was already in sync: the 30 s background pull and server pokes
 * go synced → syncing → synced all day, and a badge (and a screen-reader announcement) every
 * 30 s would be noise. A round trip that carries the driver's own save or their Sync Data
 * (`byDriver`) does show, as does anything else — offline, pending, an error, coming back
 * from one of those, and a pull long enough to report its progress.
 * `settled` is the last state before the current syncing phase began.
 */
export function announces(previous: SyncStatus, next: SyncStatus, settled: SyncStatus['state']): boolean {
  if (next.state === 'syncing' && next.byDriver === true && previous.state !== 'syncing') return true;
  // A pull of thousands of records (a first sync) says how far it has got: the screens fill
  // once it stores them, and the driver should know they are coming.
  if (next.state === 'syncing' && next.pulled !== undefined && !(previous.state === 'syncing' && previous.pulled !== undefined)) return true;
  if (previous.state === next.state) {
    return next.state === 'pending' && previous.state === 'pending' && next.count !== previous.count;
  }
  if (next.state === 'syncing' || next.state === 'synced') return settled !== 'synced';
  return true;
}

const QUIET: SyncStatus = { state: 'synced', lastSyncAt: null };

/** Drives the floating sync badge: shown on a status change, hidden 3 s after synced or on Dismiss. */
export function useSyncBadge(status: SyncStatus): { visible: boolean; dismiss: () => void } {
  const [seen, setSeen] = useState(status);
  const [settled, setSettled] = useState<SyncStatus['state']>(status.state);
  // The shell can mount after sync has already said something worth showing (the engine starts
  // as early as it can: issue 30): shown as if it had changed from a quiet, synced device.
  const [visible, setVisible] = useState(() => announces(QUIET, status, 'synced'));

  // Adjusting state while rendering (React's pattern for "state from the previous render"):
  // no effect round trip, so the badge never shows a stale text for a frame.
  if (status !== seen) {
    setSeen(status);
    if (announces(seen, status, settled)) setVisible(true);
    if (status.state !== 'syncing') setSettled(status.state);
  }

  useEffect(() => {
    if (!visible || status.state !== 'synced') return;
    const timer = setTimeout(() => setVisible(false), BADGE_HIDE_AFTER_SYNCED_MS);
    return () => clearTimeout(timer);
  }, [visible, status]);

  return { visible, dismiss: () => setVisible(false) };
}
