import { useEffect, type ReactNode } from 'react';
import { SessionContext } from './session-context';
import type { SessionStore } from './session-store';

export function SessionProvider({ store, children }: { store: SessionStore; children: ReactNode }) {
  useEffect(() => {
    void store.start();
  }, [store]);
  return <SessionContext value={store}>{children}</SessionContext>;
}
