import { RouterProvider, type createBrowserRouter } from 'react-router';
import { SessionProvider } from '@/lib/session/session-provider';
import type { SessionStore } from '@/lib/session/session-store';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/** Providers around the router. main.tsx passes the real ones; tests pass fresh ones. */
export function App({ session, router }: { session: SessionStore; router: AppRouter }) {
  return (
    <SessionProvider store={session}>
      <RouterProvider router={router} />
    </SessionProvider>
  );
}
