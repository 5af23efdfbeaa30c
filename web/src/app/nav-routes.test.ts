import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { navItemAt, navItemOfRoute, navItems } from '@/lib/nav';
import { routes } from '@/lib/paths';
import { appRoutes } from './routes';

/** Every path the route tree serves, however deep. */
function servedPaths(tree: RouteObject[]): string[] {
  return tree.flatMap((route) => [...(route.path ? [route.path] : []), ...servedPaths(route.children ?? [])]);
}

const appPaths = servedPaths(appRoutes).filter((path) => path === routes.app || path.startsWith(`${routes.app}/`));

describe('the bottom bar’s route table (lib/nav.ts)', () => {
  it('covers the app’s screens', () => {
    // A guard against the filter finding nothing and every test below passing on no routes.
    expect(appPaths).toEqual(expect.arrayContaining([routes.dashboard, routes.history, routes.settings, routes.more]));
  });

  it.each(appPaths)('maps %s to exactly one bar item', (path) => {
    const item = navItemAt(path, '');
    expect(navItems.filter((nav) => nav.id === item)).toHaveLength(1);
  });

  it('names no route the app does not serve', () => {
    expect(Object.keys(navItemOfRoute).sort()).toEqual([...appPaths].sort());
  });

  it('lights each item on the screen it opens', () => {
    for (const nav of navItems) {
      const url = new URL(nav.to, 'https://app.test');
      expect(navItemAt(url.pathname, url.search)).toBe(nav.id);
    }
  });

  it.each([
    ['', 'history'],
    ['?view=summaries', 'history'],
    ['?from=2026-01-01&to=2026-01-31', 'history'],
    ['?view=statements', 'statements'],
    ['?view=statements&from=2026-01-01', 'statements'],
    // A link written before the view was renamed (a bookmark, the home screen) still opens it.
    ['?view=invoices', 'statements'],
  ] as const)('splits the history screen by its view: %s is %s', (search, item) => {
    expect(navItemAt(routes.history, search)).toBe(item);
  });
});
