import { useSyncExternalStore } from 'react';

// The scroll position as the last scroll event left it. React asks for the snapshot on every
// render and commit, and reading window.scrollY there forces a layout of a page still being
// built: on a slow phone those forced layouts were a visible share of the dashboard's first
// paint (issue 30). A scroll event is the only thing that moves it.
let scrollY = 0;
const listeners = new Set<() => void>();

function onScroll(): void {
  scrollY = window.scrollY;
  for (const listener of listeners) listener();
}

function subscribe(onChange: () => void): () => void {
  if (listeners.size === 0) {
    window.addEventListener('scroll', onScroll, { passive: true });
    // Where the page is now (a restored scroll position, before any scroll event).
    scrollY = window.scrollY;
  }
  listeners.add(onChange);
  return () => {
    listeners.delete(onChange);
    if (listeners.size === 0) window.removeEventListener('scroll', onScroll);
  };
}

/** True once the page is scrolled more than `px` down. */
export function useScrolledPast(px: number): boolean {
  return useSyncExternalStore(subscribe, () => scrollY > px);
}
