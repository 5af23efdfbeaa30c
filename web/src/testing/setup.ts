import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';
import { WAIT_MS } from './wait';

// findBy* and waitFor: the suite's one wait (see wait.ts) instead of Testing Library's 1 s.
configure({ asyncUtilTimeout: WAIT_MS });

// jsdom has <dialog> but not its modal API: showModal/close set and clear `open`, and Escape
// fires a cancelable `cancel` on the top dialog and then closes it, as a browser does. What a
// browser adds (the inert page, the top layer) is checked end to end (e2e/rough-edges.spec.ts).
if (typeof HTMLDialogElement.prototype.showModal !== 'function') {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const top = Array.from(document.querySelectorAll('dialog[open]')).at(-1);
    if (top instanceof HTMLDialogElement && top.dispatchEvent(new Event('cancel', { cancelable: true }))) top.close();
  });
}

// jsdom has no layout, so no scrolling: the app shell's ScrollRestoration calls this on every
// navigation, and jsdom would log "Not implemented" each time.
window.scrollTo = () => undefined;
