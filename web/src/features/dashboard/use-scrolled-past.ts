import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('scroll', onChange, { passive: true });
  return () => window.removeEventListener('scroll', onChange);
}

/** True once the page is scrolled more than `px` down. */
export function useScrolledPast(px: number): boolean {
  return useSyncExternalStore(subscribe, () => window.scrollY > px);
}
