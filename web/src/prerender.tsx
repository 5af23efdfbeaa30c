import { renderToString } from 'react-dom/server';
import { createMemoryRouter } from 'react-router';
import { App } from './app/app';
import { appRoutes } from './app/routes';
import { createSessionStore } from './lib/session/session-store';

/**
 * A public page's markup as a first visit's first render draws it: nobody remembered on the
 * device, the session not yet answered (scripts/prerender.ts writes it into the page's HTML,
 * so it is the first paint). Only pages whose code is in the entry chunk render here.
 */
export function prerender(path: string): string {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  // Nobody is signed in, so the sync engine is never started.
  const start = () => Promise.reject(new Error('no sync while prerendering'));
  return renderToString(<App session={createSessionStore()} router={router} start={start} />);
}
