// Every URL the web app knows lives here, so a renamed route or endpoint is a one-line change.

export const routes = {
  home: '/',
  login: '/login',
  forgotPassword: '/forgot-password',
  /** Opened from an e-mailed link: the token is the URL's fragment (`#…`). */
  resetPassword: '/reset-password',
  /** Opened from the operator's invitation: the token is the URL's fragment (`#…`). */
  invite: '/invite',
  contact: '/contact',
  privacy: '/privacy',
  terms: '/terms',
  app: '/app',
  dashboard: '/app/dashboard',
  history: '/app/history',
  /** One statement check's lines and differences (`?id=` the check). */
  statementCheck: '/app/statement-check',
  /** One statement query: the dated letter and its tracking (`?id=` the query). */
  statementQuery: '/app/statement-query',
  profile: '/app/profile',
  settings: '/app/settings',
  spending: '/app/spending',
  taxYear: '/app/tax',
  upgrade: '/app/upgrade',
  /** Everything the bottom bar has no room for: profile, settings, plans, help. */
  more: '/app/more',
  /** What a period would have paid under another card (issue 28); nothing is saved there. */
  whatIf: '/app/what-if',
  appContact: '/app/contact',
  appPrivacy: '/app/privacy',
  appTerms: '/app/terms',
} as const;

/** The what-if page for a courier, opened on one of its cards or one period's dates. */
export function whatIfLink(courierId: string, choice: { card: string } | { from: string; to: string }): string {
  return `${routes.whatIf}?${new URLSearchParams({ courier: courierId, ...choice }).toString()}`;
}

/** The tax year page on a year's quarterly updates (a reminder's link). */
export function taxYearUpdates(year: string): string {
  return `${routes.taxYear}?${new URLSearchParams({ year }).toString()}#tax-updates`;
}

/** The login page opened on its Sign Up tab (the landing's "Get Started"). */
export const signUpLink = `${routes.login}?mode=sign-up`;

export type HistoryView = 'entries' | 'summaries' | 'statements';

/** One statement query's page: the letter to print or copy, its chain checked, its tracking. */
export function statementQueryPage(id: string): string {
  return `${routes.statementQuery}?id=${encodeURIComponent(id)}`;
}

/** One statement check's page: its lines, the differences named, the import of its file. */
export function statementCheckPage(id: string): string {
  return `${routes.statementCheck}?id=${encodeURIComponent(id)}`;
}

export type SpendingView = 'expenses' | 'mileage' | 'fuel';

/** The expenses & mileage screen on one of its views; `add` opens the view's form. */
export function spendingView(view: SpendingView, add = false): string {
  return `${routes.spending}?view=${view}${add ? '&add=1' : ''}`;
}

/** The history screen on one of its views (entries, summaries, statement checks). */
export function historyView(view: HistoryView): string {
  return view === 'entries' ? routes.history : `${routes.history}?view=${view}`;
}

/**
 * The history view a `view` parameter names; entries when it names none. `invoices` is the
 * statement checks' view as links written before it was renamed say it (bookmarks, the home
 * screen), so they still open it.
 */
export function historyViewOf(param: string | null): HistoryView {
  if (param === 'invoices') return 'statements';
  return param === 'summaries' || param === 'statements' ? param : 'entries';
}

/** The history's entries on one day, with the entry `edit` open in its editor. */
export function historyDay(date: string, edit?: string): string {
  const query = new URLSearchParams({ from: date, to: date });
  if (edit) query.set('edit', edit);
  return `${routes.history}?${query.toString()}`;
}

/** The informational pages exist twice: public, and inside the app shell for signed-in users. */
export function infoRoutes(inApp: boolean) {
  return inApp
    ? { contact: routes.appContact, privacy: routes.appPrivacy, terms: routes.appTerms }
    : { contact: routes.contact, privacy: routes.privacy, terms: routes.terms };
}

export const apiPaths = {
  session: '/api/v1/auth/session',
  signUp: '/api/v1/auth/signup',
  logIn: '/api/v1/auth/login',
  guest: '/api/v1/auth/guest',
  providers: '/api/v1/auth/providers',
  phoneChallenge: '/api/v1/auth/phone/challenge',
  phoneSend: '/api/v1/auth/phone/send',
  phoneVerify: '/api/v1/auth/phone/verify',
  logOut: '/api/v1/auth/logout',
  sessions: '/api/v1/auth/sessions',
  endOtherSessions: '/api/v1/auth/sessions/end-others',
  password: '/api/v1/auth/password',
  forgotPassword: '/api/v1/auth/password/forgot',
  resetPassword: '/api/v1/auth/password/reset',
  checkLink: '/api/v1/auth/links/check',
  acceptInvite: '/api/v1/auth/invite/accept',
  linkPassword: '/api/v1/auth/link/password',
  oidcStart: '/api/v1/auth/oidc/start',
  oidcLink: '/api/v1/auth/oidc/start?link=1',
  profilePhoto: '/api/v1/profile/photo',
  checkout: '/api/v1/billing/checkout',
  contact: '/api/v1/contact',
  syncPush: '/api/v1/sync/push',
  syncEvents: '/api/v1/sync/events',
} as const;

/** A receipt photo: PUT uploads it (idempotent by id), GET reads it, DELETE removes it. */
export function receiptPath(id: string): string {
  return `/api/v1/receipts/${encodeURIComponent(id)}`;
}

/** The evidence bundle the server builds: of a statement query, or of the days from..to. */
export function evidenceBundlePath(scope: { queryId: string } | { from: string; to: string }): string {
  const query = 'queryId' in scope ? new URLSearchParams({ queryId: scope.queryId }) : new URLSearchParams({ from: scope.from, to: scope.to });
  return `/api/v1/evidence-bundle?${query.toString()}`;
}

/** One of the user's signed-in sessions (to end it). */
export function sessionPath(id: string): string {
  return `${apiPaths.sessions}/${encodeURIComponent(id)}`;
}

/** One page of changes after `cursor` (the sync engine's pull). */
export function syncPullPath(cursor: number, limit: number): string {
  return `/api/v1/sync/pull?cursor=${cursor}&limit=${limit}`;
}
