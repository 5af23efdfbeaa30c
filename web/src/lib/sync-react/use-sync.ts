import { useCallback, useContext, useSyncExternalStore } from 'react';
import type { SyncHandle } from '@/sync/coordinator';
import type { SyncStatus } from '@/sync/status';
import { SyncContext } from './sync-context';

/** The handle, or null while nobody is signed in (the app shell waits for it). */
export function useOptionalSyncHandle(): SyncHandle | null {
  return useContext(SyncContext);
}

/** The signed-in user's sync handle. Only inside the app shell, which waits for it. */
export function useSyncHandle(): SyncHandle {
  const handle = useContext(SyncContext);
  if (!handle) throw new Error('useSyncHandle needs a signed-in user inside <SyncProvider>');
  return handle;
}

export function useSyncStatus(): SyncStatus {
  const handle = useSyncHandle();
  const subscribe = useCallback((onChange: () => void) => handle.subscribe(() => onChange()), [handle]);
  return useSyncExternalStore(subscribe, () => handle.status);
}
