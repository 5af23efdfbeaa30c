import 'fake-indexeddb/auto';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { expect, vi } from 'vitest';
import { App } from '@/app/app';
import { appRoutes } from '@/app/routes';
import { createSessionStore } from '@/lib/session/session-store';
import type { User } from '@/lib/session/user';
import type { StartSync } from '@/lib/sync-react/sync-manager';
import { engineStarter } from './engine-sync';
import { createFakeFetch, json, type FakeFetch, type FakeHandler, type RecordedCall } from './fake-fetch';

interface RenderAppOptions {
  /** Who the server says is signed in; null = 401. Ignored when routes sets the session route. */
  user?: User | null;
  /** Extra or overriding server routes. */
  routes?: Record<string, FakeHandler>;
  /** How sync starts; unless given, the real engine talking to the fake server (see engineStarter). */
  start?: StartSync;
}

/** A server with nothing to send that accepts every change. */
export const emptySyncRoutes: Record<string, FakeHandler> = {
  'GET /api/v1/sync/pull': () => json(200, { changes: [], cursor: 0, hasMore: false }),
  'POST /api/v1/sync/push': (call: RecordedCall) => {
    const { mutations } = call.body as { mutations: { id: string }[] };
    return json(200, { results: mutations.map(({ id }) => ({ id, status: 'applied' })) });
  },
};

/** The whole app at `path`, with the real routes and providers, talking to a fake server. */
export function renderApp(path: string, { user = null, routes = {}, start = engineStarter() }: RenderAppOptions = {}) {
  const server: FakeFetch = createFakeFetch({
    'GET /api/v1/auth/session': () => json(200, { user: user ?? null }),
    // The profile's device list: just this one.
    'GET /api/v1/auth/sessions': () =>
      json(200, { sessions: [{ id: 's1', device: 'Chrome on Linux', createdAt: '2025-03-21T09:00:00Z', lastSeenAt: '2025-03-21T09:00:00Z', current: true }] }),
    'GET /api/v1/auth/providers': () => json(200, { phone: false, oidc: null }),
    ...emptySyncRoutes,
    ...routes,
  });
  vi.stubGlobal('fetch', server.fetch);

  const session = createSessionStore();
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const view = render(<App session={session} router={router} start={start} />);
  return { ...view, router, session, server, start, user: userEvent.setup() };
}

/** Resolves once the auth check has settled and the spinner is gone. */
export async function waitForSession() {
  // RTL's waitFor (not vi.waitFor) so the session's state change lands inside act().
  await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument());
}

export function currentPath(router: { state: { location: { pathname: string } } }) {
  return router.state.location.pathname;
}
