// Which bottom-bar item each app screen belongs to: one table, so a new screen cannot be left
// with nothing highlighted (nav.test.ts checks every route in app/routes.tsx against it).
import { historyView, historyViewOf, routes } from './paths';

export type NavItemId = 'home' | 'history' | 'statements' | 'spending' | 'tax' | 'more';

export interface NavItem {
  id: NavItemId;
  label: string;
  to: string;
}

/** The bottom bar, in order: what a driver does, most often first. */
export const navItems: readonly NavItem[] = [
  { id: 'home', label: 'Home', to: routes.dashboard },
  { id: 'history', label: 'History', to: routes.history },
  { id: 'statements', label: 'Statements', to: historyView('statements') },
  { id: 'spending', label: 'Spending', to: routes.spending },
  { id: 'tax', label: 'Tax', to: routes.taxYear },
  { id: 'more', label: 'More', to: routes.more },
];

/** Every screen under /app and its item. History is two items: its statement checks view is "Statements". */
export const navItemOfRoute: Readonly<Record<string, NavItemId | ((params: URLSearchParams) => NavItemId)>> = {
  [routes.app]: 'home',
  [routes.dashboard]: 'home',
  [routes.history]: (params) => (historyViewOf(params.get('view')) === 'statements' ? 'statements' : 'history'),
  [routes.statementCheck]: 'statements',
  [routes.statementQuery]: 'statements',
  [routes.spending]: 'spending',
  [routes.taxYear]: 'tax',
  [routes.more]: 'more',
  
  [routes.profile]: 'more',
  [routes.settings]: 'more',
  // Opened from a rate card (under More) and from a pay period (Statements): pay settings' place.
  [routes.whatIf]: 'more',
  [routes.upgrade]: 'more',
  [routes.appContact]: 'more',
  [routes.appPrivacy]: 'more',
  [routes.appTerms]: 'more',
};

/** The item to highlight at `pathname` + `search`; null only off the table (a path the app does not serve). */
export function navItemAt(pathname: string, search: string): NavItemId | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const item = navItemOfRoute[path];
  if (item === undefined) return null;
  return typeof item === 'function' ? item(new URLSearchParams(search)) : item;
}
