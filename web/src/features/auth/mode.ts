export type Mode = 'login' | 'sign-up';

/** The tab's element id, which its tab panel (and the form in it) names as its label. */
export function tabId(mode: Mode) {
  return `auth-tab-${mode}`;
}

/** The tab a link asked for (`?mode=sign-up`, from the landing's "Get Started"); Login otherwise. */
export function modeFromSearch(search: string): Mode {
  return new URLSearchParams(search).get('mode') === 'sign-up' ? 'sign-up' : 'login';
}
