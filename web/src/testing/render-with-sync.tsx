import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { SessionContext } from '@/lib/session/session-context';
import { createSessionStore } from '@/lib/session/session-store';
import type { User } from '@/lib/session/user';
import { SyncContext } from '@/lib/sync-react/sync-context';
import { makeUser } from './fixtures';
import { createTestSyncHandle, type TestSyncHandle } from './sync-handle';

/**
 * One screen with a signed-in user and a test sync handle (a real on-device database, no
 * server), inside a memory router so links work. Other paths render their path as text.
 */
export function renderWithSync(
  ui: ReactNode,
  {
    handle = createTestSyncHandle(),
    user = makeUser(),
    path = '/app/dashboard',
    at = path,
  }: { handle?: TestSyncHandle; user?: User; path?: string; /** The URL to open, with a query; defaults to `path`. */ at?: string } = {},
) {
  const session = createSessionStore();
  session.signedIn(user);
  const router = createMemoryRouter(
    [
      { path, element: ui },
      { path: '*', Component: () => <p>Now at another page</p> },
    ],
    { initialEntries: [at] },
  );
  const view = render(
    <SessionContext value={session}>
      <SyncContext value={handle}>
        <RouterProvider router={router} />
      </SyncContext>
    </SessionContext>,
  );
  return { ...view, handle, router, session, user: userEvent.setup() };
}
