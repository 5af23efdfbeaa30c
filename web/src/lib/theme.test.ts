import { afterEach, describe, expect, it } from 'vitest';
import { applyTheme, readCachedTheme, THEME_CACHE_KEY } from './theme';

afterEach(() => {
  localStorage.clear();
  document.head.innerHTML = '';
  delete document.documentElement.dataset.theme;
});

describe('theme', () => {
  it('starts dark when nothing (or nonsense) is remembered', () => {
    expect(readCachedTheme()).toBe('dark');
    localStorage.setItem(THEME_CACHE_KEY, 'neon');
    expect(readCachedTheme()).toBe('dark');
  });

  it('applies a theme to the page and the browser colour, and remembers it for the next start', () => {
    document.head.innerHTML = '<meta name="theme-color" content="#0e1116">';
    applyTheme('light');
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(document.querySelector('meta[name="theme-color"]')).toHaveAttribute('content', '#f5f7fa');
    expect(readCachedTheme()).toBe('light');
    applyTheme('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(readCachedTheme()).toBe('dark');
  });
});
