import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from './app/app';
import { UpdatePrompt } from './components/update-prompt';
import { appRoutes } from './app/routes';
import { createSessionStore, rememberedUserId } from './lib/session/session-store';
import type { StartSync } from '@/lib/sync-react/sync-manager';
import { applyTheme, readCachedTheme } from './lib/theme';
import './app/global.css';

// The sync engine (Dexie, the outbox, the merge) loads only once someone is signed in.
const startSyncLater: StartSync = (options) => import('./sync/coordinator').then(({ startSync }) => startSync(options));

// Before the first render: the last theme, so a light-theme user never sees a dark flash.
applyTheme(readCachedTheme());

// Who is signed in is asked at once rather than after the first render, and for someone signed
// in last time the sync engine's code loads and their database opens meanwhile: on a slow phone
// the screens otherwise wait for each of these in turn before the first figure (issue 30). A
// sign-in readies the same while the server answers it.
// A sign-in also starts the pull worker, and the user's first pull once the server names them:
// the worker then opens their database (on a new device, creates it) rather than this busy
// thread, which the pull would otherwise wait for.
const prepare = (userId: string | null, { signingIn = true } = {}) =>
  void import('./sync/coordinator').then(
    ({ openEarly, warmPullWorker }) => {
      if (signingIn) warmPullWorker(userId);
      else if (userId) openEarly(userId);
    },
    () => undefined, // offline before the service worker had it: starting sync reports it
  );
const session = createSessionStore({ prepare });
void session.start();
const remembered = rememberedUserId();
// Not the pull: a device that already holds its records draws them first (its sync starts as always).
if (remembered) prepare(remembered, { signingIn: false });

const root = document.getElementById('root');
if (!root) throw new Error('index.html must contain #root');

const app = (
  <StrictMode>
    <App session={session} router={createBrowserRouter(appRoutes)} start={startSyncLater} />
    <UpdatePrompt />
  </StrictMode>
);

// The landing and login pages arrive prerendered (scripts/prerender.ts): React adopts that
// markup, in slices that leave the phone responsive, once it is exactly what React would draw
// (no wrapper, no controls held back). Every other page replaces index.html's splash.
const prerendered = root.querySelector(':scope > .prerendered');
if (prerendered) {
  for (const control of prerendered.querySelectorAll('[data-until-js]')) {
    control.removeAttribute('disabled');
    control.removeAttribute('data-until-js');
  }
  prerendered.replaceWith(...prerendered.childNodes);
  hydrateRoot(root, app);
} else {
  createRoot(root).render(app);
}
