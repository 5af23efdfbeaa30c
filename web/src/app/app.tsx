import { RouterProvider, type createBrowserRouter } from 'react-router';
import { SessionProvider } from '@/lib/session/session-provider';
import type { SessionStore } from '@/lib/session/session-store';
import { SyncProvider } from '@/lib/sync-react/sync-provider';
import type { StartSync } from '@/lib/sync-react/sync-manager';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * Providers around the router. main.tsx passes the real ones (sync's engine loaded on demand);
 * tests pass fresh ones.
 */
export function App({ session, router, start }: { session: SessionStore; router: AppRouter; start: StartSync }) {
  return (
    <SessionProvider store={session}>
      <SyncProvider session={session} start={start}>
        <RouterProvider router={router} />
      </SyncProvider>
    </SessionProvider>
  );
}
