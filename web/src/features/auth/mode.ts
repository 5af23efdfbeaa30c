export type Mode = 'login' | 'sign-up';

/** The tab's element id, which the form (its tabpanel) names as its label. */
export function tabId(mode: Mode) {
  return `auth-tab-${mode}`;
}
