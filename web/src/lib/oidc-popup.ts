import { isBoolean, isOptional, isRecord, isString } from './guards';

/**
 * Sign-in with an OpenID provider in a popup. The server's last page in the popup posts
 * `{type: 'oidc-result', ...}` to this window (to our origin only) and closes itself.
 */
export type OidcOutcome =
  | { kind: 'success'; isNewUser: boolean }
  | { kind: 'failed'; code: string; message: string | undefined }
  /** window.open returned null: a popup blocker said no. */
  | { kind: 'blocked' }
  /** The popup went away without a result (closed by the person, or it crashed). */
  | { kind: 'closed' };

type PopupResult = { type: 'oidc-result'; ok: true; isNewUser: boolean } | { type: 'oidc-result'; ok: false; error: string; message?: string | undefined };

/** The popup page's message, checked by hand rather than by zod: the login page is a first load (lib/guards.ts). */
export function readOidcResult(data: unknown): PopupResult | undefined {
  if (!isRecord(data) || data.type !== 'oidc-result') return undefined;
  const { ok, isNewUser, error, message } = data;
  if (ok === true) return isBoolean(isNewUser) ? { type: 'oidc-result', ok, isNewUser } : undefined;
  if (ok !== false || !isString(error) || !isOptional(message, isString)) return undefined;
  const result: PopupResult = { type: 'oidc-result', ok, error };
  if ('message' in data) result.message = message;
  return result;
}

/** The bits of `window` the popup needs, so tests can stand in for the browser. */
export interface PopupHost {
  origin: string;
  open(url: string, target: string, features: string): { closed: boolean } | null;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

function browserHost(): PopupHost {
  return {
    origin: window.location.origin,
    open: (url, target, features) => window.open(url, target, features),
    addEventListener: (type, listener) => window.addEventListener(type, listener),
    removeEventListener: (type, listener) => window.removeEventListener(type, listener),
  };
}

const POLL_MS = 400;

/**
 * Opens the popup at once — call it straight from a click handler, before any await, or
 * popup blockers refuse it — and resolves with how the sign-in ended.
 */
export function runOidcPopup(url: string, host: PopupHost = browserHost()): Promise<OidcOutcome> {
  const popup = host.open(url, 'oidc-sign-in', 'popup,width=480,height=640');
  if (!popup) return Promise.resolve({ kind: 'blocked' });

  return new Promise((resolve) => {
    let closedPolls = 0;
    const finish = (outcome: OidcOutcome) => {
      host.removeEventListener('message', onMessage);
      clearInterval(timer);
      resolve(outcome);
    };
    function onMessage(event: MessageEvent) {
      // Anyone can post to this window: only our own server's page counts.
      if (event.origin !== host.origin) return;
      if (event.source !== null && event.source !== (popup as unknown)) return;
      const result = readOidcResult(event.data);
      if (!result) return;
      finish(result.ok ? { kind: 'success', isNewUser: result.isNewUser } : { kind: 'failed', code: result.error, message: result.message });
    }
    host.addEventListener('message', onMessage);
    // The page posts and then closes; its message can arrive just after `closed` turns true,
    // so the popup must be seen closed twice in a row before we give up on it.
    const timer = setInterval(() => {
      closedPolls = popup.closed ? closedPolls + 1 : 0;
      if (closedPolls >= 2) finish({ kind: 'closed' });
    }, POLL_MS);
  });
}

/** What to tell the person when the popup did not sign them in. */
export function oidcFailureMessage(outcome: Exclude<OidcOutcome, { kind: 'success' }>, label: string): string {
  switch (outcome.kind) {
    case 'blocked':
      return `The ${label} sign-in window was blocked. Allow pop-ups for this site and try again.`;
    case 'closed':
      return `The ${label} sign-in window was closed before signing in.`;
    case 'failed':
      return outcome.message || `Failed to login with ${label}`;
  }
}
