import { useCallback, useRef, useState } from 'react';
import { useSessionStore } from '@/lib/session/use-session';

export const syncMessages = {
  success: 'Data synchronized successfully!',
  failure: 'Failed to sync data. Please try again.',
} as const;

/**
 * The header's Sync Data action. Until the sync engine exists, syncing means re-reading the
 * session from the server; the sync-engine issue swaps the body of `sync` and nothing else.
 */
export function useSyncData() {
  const session = useSessionStore();
  const [syncing, setSyncing] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  // A ref, not state: a double tap must not start two syncs before React re-renders.
  const inFlight = useRef(false);

  const sync = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setSyncing(true);
    try {
      const user = await session.refresh();
      setMessage(user ? syncMessages.success : syncMessages.failure);
    } catch {
      setMessage(syncMessages.failure);
    } finally {
      inFlight.current = false;
      setSyncing(false);
    }
  }, [session]);

  const dismiss = useCallback(() => setMessage(null), []);

  return { syncing, sync, message, dismiss };
}
