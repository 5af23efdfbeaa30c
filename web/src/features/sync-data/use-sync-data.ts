import { useCallback, useRef, useState } from 'react';
import { useSyncHandle } from '@/lib/sync/use-sync';

export const syncMessages = {
  success: 'Data synchronized successfully!',
  failure: 'Failed to sync data. Please try again.',
} as const;

/** The header's Sync Data action: a full push and pull now, reported in an alert dialog. */
export function useSyncData() {
  const handle = useSyncHandle();
  const [syncing, setSyncing] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  // A ref, not state: a double tap must not start two syncs before React re-renders.
  const inFlight = useRef(false);

  const sync = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setSyncing(true);
    try {
      setMessage((await handle.syncNow()) ? syncMessages.success : syncMessages.failure);
    } catch {
      setMessage(syncMessages.failure);
    } finally {
      inFlight.current = false;
      setSyncing(false);
    }
  }, [handle]);

  const dismiss = useCallback(() => setMessage(null), []);

  return { syncing, sync, message, dismiss };
}
