import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { expect, vi } from 'vitest';
import { App } from '@/app/app';
import { appRoutes } from '@/app/routes';
import { createSessionStore } from '@/lib/session/session-store';
import type { User } from '@/lib/session/user';
import { apiError, createFakeFetch, json, type FakeFetch, type FakeHandler } from './fake-fetch';

interface RenderAppOptions {
  /** Who the server says is signed in; null = 401. Ignored when routes sets the session route. */
  user?: User | null;
  /** Extra or overriding server routes. */
  routes?: Record<string, FakeHandler>;
}

/** The whole app at `path`, with the real routes and providers, talking to a fake server. */
export function renderApp(path: string, { user = null, routes = {} }: RenderAppOptions = {}) {
  const server: FakeFetch = createFakeFetch({
    'GET /api/v1/auth/session': () => (user ? json(200, { user }) : apiError(401, 'unauthenticated', 'Not signed in')),
    ...routes,
  });
  vi.stubGlobal('fetch', server.fetch);

  const session = createSessionStore();
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const view = render(<App session={session} router={router} />);
  return { ...view, router, session, server, user: userEvent.setup() };
}

/** Resolves once the auth check has settled and the spinner is gone. */
export async function waitForSession() {
  // RTL's waitFor (not vi.waitFor) so the session's state change lands inside act().
  await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument());
}

export function currentPath(router: { state: { location: { pathname: string } } }) {
  return router.state.location.pathname;
}
