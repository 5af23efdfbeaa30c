import { ApiError, request } from '@/lib/api';
import { apiPaths } from '@/lib/paths';
import { sessionCheckSchema, sessionResponseSchema, type User } from './user';

/**
 * Who is signed in, kept outside React. The last signed-in user is remembered on the device,
 * so a driver with no signal still opens the app (with their local data) and stays signed in
 * for days; the session is re-validated with the server as soon as it is reachable.
 */

const CACHE_KEY = 'delivery-tracker:last-user';

function readCachedUser(): User | null {
  try {
    const raw = localStorage.getItem(CACHE_KEY);
    if (!raw) return null;
    const parsed = sessionResponseSchema.safeParse({ user: JSON.parse(raw) });
    return parsed.success ? parsed.data.user : null;
  } catch {
    return null;
  }
}

/** The id of the user last signed in on this device (signing out forgets it), if any. */
export function rememberedUserId(): string | null {
  return readCachedUser()?.id ?? null;
}

function cacheUser(user: User | null): void {
  try {
    if (user) localStorage.setItem(CACHE_KEY, JSON.stringify(user));
    else localStorage.removeItem(CACHE_KEY);
  } catch {
    // Storage full or blocked: the app still works online.
  }
}

/** The server could not be reached (as opposed to answering that the session is gone). */
function isUnreachable(error: unknown): boolean {
  return !(error instanceof ApiError) || error.code === 'network' || error.status >= 500;
}

/** Why nobody is signed in: the guard sends a deliberate sign-out home, everyone else to /login. */
export type SignedOutReason = 'no-session' | 'signed-out';

export type SessionState =
  /** `remembered`: someone was signed in on this device last time, so the answer is likely a user. */
  | { status: 'loading'; user: null; remembered: boolean }
  | { status: 'signed-in'; user: User }
  | { status: 'signed-out'; user: null; reason: SignedOutReason };

export interface SessionStore {
  getState(): SessionState;
  subscribe(listener: () => void): () => void;
  /** Asks the server who we are, once; later calls return the same promise. */
  start(): Promise<void>;
  /** Re-reads the session from the server. Resolves null when it has ended (401). */
  refresh(): Promise<User | null>;
  /** Records a user that just signed in, signed up or continued as guest. */
  signedIn(user: User): void;
  /** A sign-in was sent: what a signed-in user needs may get ready while the server answers. */
  signingIn(): void;
  /**
   * Records a user that just signed in, once the server confirms that this browser kept the
   * session cookie the sign-in set. False (and nobody recorded) when it did not: the session
   * reads signed out right after the sign-in succeeded, as over plain http to another machine,
   * where browsers drop the Secure cookie. A server that cannot be reached cannot tell, so the
   * sign-in's own answer is trusted then.
   */
  confirmSignIn(user: User): Promise<boolean>;
  /** Ends the session on the server, then locally. Throws when the server could not be told. */
  signOut(): Promise<void>;
}

export interface SessionStoreOptions {
  /**
   * Gets the signed-in app ready while a sign-in goes on: its code as soon as one is sent
   * (`userId` null), the user's own database as soon as the server names them. On a slow phone
   * each takes a few hundred milliseconds that otherwise come after the sign-in, before the
   * first sync can begin (issue 30). Only readies: nothing is read or shown until the session says so.
   */
  prepare?: (userId: string | null) => void;
}

export function createSessionStore({ prepare = () => undefined }: SessionStoreOptions = {}): SessionStore {
  let state: SessionState = { status: 'loading', user: null, remembered: readCachedUser() !== null };
  let started: Promise<void> | undefined;
  const listeners = new Set<() => void>();

  function set(next: SessionState) {
    state = next;
    cacheUser(next.user);
    for (const listener of listeners) listener();
  }

  async function fetchUser(): Promise<User | null> {
    try {
      const { user } = await request(apiPaths.session, { schema: sessionCheckSchema });
      return user;
    } catch (error) {
      // Signed out is `{user: null}`; a server from before that answered 401.
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  }

  const store: SessionStore = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      started ??= fetchUser().then(
        (user) => set(user ? { status: 'signed-in', user } : { status: 'signed-out', user: null, reason: 'no-session' }),
        (error: unknown) => {
          const cached = isUnreachable(error) ? readCachedUser() : null;
          if (cached) {
            // Offline: carry on as the last user and check again once the network is back.
            set({ status: 'signed-in', user: cached });
            if (typeof window !== 'undefined') {
              window.addEventListener('online', () => void store.refresh().catch(() => undefined), { once: true });
            }
          } else {
            set({ status: 'signed-out', user: null, reason: 'no-session' });
          }
        },
      );
      return started;
    },
    async refresh() {
      const user = await fetchUser();
      set(user ? { status: 'signed-in', user } : { status: 'signed-out', user: null, reason: 'no-session' });
      return user;
    },
    signedIn(user) {
      set({ status: 'signed-in', user });
    },
    signingIn() {
      prepare(null);
    },
    async confirmSignIn(user) {
      prepare(user.id);
      let current: User | null;
      try {
        current = await fetchUser();
      } catch {
        current = user;
      }
      if (!current) return false;
      set({ status: 'signed-in', user: current });
      return true;
    },
    async signOut() {
      try {
        await request(apiPaths.logOut, { method: 'POST' });
      } catch (error) {
        // Already gone on the server: the goal is reached.
        if (!(error instanceof ApiError && error.status === 401)) throw error;
      }
      set({ status: 'signed-out', user: null, reason: 'signed-out' });
    },
  };
  return store;
}
