import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { SessionStore } from '@/lib/session/session-store';
import { SyncContext } from './sync-context';
import { createSyncManager, type StartSync } from './sync-manager';

/** Runs sync for the signed-in user and hands their sync handle to the screens below. */
export function SyncProvider({ session, start, children }: { session: SessionStore; start: StartSync; children: ReactNode }) {
  const [manager] = useState(() => createSyncManager(session, start));
  useEffect(() => {
    manager.attach();
    return () => manager.detach();
  }, [manager]);
  // The same handle on the server: the landing and login pages are prerendered (scripts/prerender.ts).
  const handle = useSyncExternalStore(manager.subscribe, manager.getHandle, manager.getHandle);
  return <SyncContext value={handle}>{children}</SyncContext>;
}
