import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from './app/app';
import { UpdatePrompt } from './components/update-prompt';
import { appRoutes } from './app/routes';
import { createSessionStore } from './lib/session/session-store';
import { applyTheme, readCachedTheme } from './lib/theme';
import './app/global.css';

// Before the first render: the last theme, so a light-theme user never sees a dark flash.
applyTheme(readCachedTheme());

const root = document.getElementById('root');
if (!root) throw new Error('index.html must contain #root');

createRoot(root).render(
  <StrictMode>
    <App session={createSessionStore()} router={createBrowserRouter(appRoutes)} />
    <UpdatePrompt />
  </StrictMode>,
);
