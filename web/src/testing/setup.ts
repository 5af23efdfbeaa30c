import '@testing-library/jest-dom/vitest';

// jsdom has no layout, so no scrolling: the app shell's ScrollRestoration calls this on every
// navigation, and jsdom would log "Not implemented" each time.
window.scrollTo = () => undefined;
