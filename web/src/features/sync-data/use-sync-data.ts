import { useCallback, useEffect, useRef, useState } from 'react';
import { useSyncHandle } from '@/lib/sync-react/use-sync';

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
  // A sync outlives the screen that asked for it (sign-out, navigation): its answer is then
  // nobody's to show, so no state is set once unmounted.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const sync = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setSyncing(true);
    let answer: string = syncMessages.failure;
    try {
      if (await handle.syncNow()) answer = syncMessages.success;
    } catch {
      // answer stays the failure
    } finally {
      inFlight.current = false;
      if (mounted.current) {
        setMessage(answer);
        setSyncing(false);
      }
    }
  }, [handle]);

  const dismiss = useCallback(() => setMessage(null), []);

  return { syncing, sync, message, dismiss };
}
