// The reference for first-load JS (bench/first-load.ts): the stack the app stands on and
// nothing of its own — React 19, react-router, Dexie, workbox-window — each one used, so the
// bundler keeps it.
import Dexie from 'dexie';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { Workbox } from 'workbox-window';

const db = new Dexie('bare-stack');
db.version(1).stores({ entries: 'id, date' });
void db.open();
if ('serviceWorker' in navigator) void new Workbox('/sw.js').register();

const router = createBrowserRouter([{ path: '/', element: createElement('h1', null, 'Bare stack') }]);
createRoot(document.getElementById('root')!).render(createElement(RouterProvider, { router }));
