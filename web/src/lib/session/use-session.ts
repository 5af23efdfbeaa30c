import { useContext, useSyncExternalStore } from 'react';
import { SessionContext } from './session-context';
import type { SessionState, SessionStore } from './session-store';

export function useSessionStore(): SessionStore {
  const store = useContext(SessionContext);
  if (!store) throw new Error('useSessionStore must be used inside <SessionProvider>');
  return store;
}

export function useSession(): SessionState {
  const store = useSessionStore();
  // The same state on the server: the landing and login pages are prerendered (scripts/prerender.ts).
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}
