import { RouterProvider, type createBrowserRouter } from 'react-router';
import { SessionProvider } from '@/lib/session/session-provider';
import type { SessionStore } from '@/lib/session/session-store';
import { SyncProvider } from '@/lib/sync/sync-provider';
import type { StartSync } from '@/lib/sync/sync-manager';
import { startSync } from '@/sync/coordinator';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * Providers around the router. main.tsx passes the real ones; tests pass fresh ones (and may
 * swap how sync starts).
 */
export function App({ session, router, start = startSync }: { session: SessionStore; router: AppRouter; start?: StartSync }) {
  return (
    <SessionProvider store={session}>
      <SyncProvider session={session} start={start}>
        <RouterProvider router={router} />
      </SyncProvider>
    </SessionProvider>
  );
}
