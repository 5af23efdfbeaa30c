// The colour theme lives in the settings document (synced); this is the DOM side. The last
// theme is also kept in localStorage so main.tsx can apply it before the first paint, while
// the settings document is still being read from IndexedDB.
import type { Theme } from '@/sync/types';

export const THEME_CACHE_KEY = 'delivery-tracker:theme';
export const DEFAULT_THEME: Theme = 'dark';

/** The browser UI colour (address bar) for each theme: the page background. */
const themeColors: Record<Theme, string> = { dark: '#0e1116', light: '#f5f7fa' };

export function isTheme(value: unknown): value is Theme {
  return value === 'dark' || value === 'light';
}

export function readCachedTheme(): Theme {
  try {
    const cached = localStorage.getItem(THEME_CACHE_KEY);
    return isTheme(cached) ? cached : DEFAULT_THEME;
  } catch {
    return DEFAULT_THEME;
  }
}

/** Switches the page to `theme` and remembers it for the next start. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = theme;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', themeColors[theme]);
  try {
    localStorage.setItem(THEME_CACHE_KEY, theme);
  } catch {
    // Storage blocked: the theme still applies for this visit.
  }
}
