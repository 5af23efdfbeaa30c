import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';
import { WAIT_MS } from './wait';

// findBy* and waitFor: the suite's one wait (see wait.ts) instead of Testing Library's 1 s.
configure({ asyncUtilTimeout: WAIT_MS });

// jsdom has no layout, so no scrolling: the app shell's ScrollRestoration calls this on every
// navigation, and jsdom would log "Not implemented" each time.
window.scrollTo = () => undefined;
