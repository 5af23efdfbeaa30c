import { ApiError, request } from '@/lib/api';
import { apiPaths } from '@/lib/paths';
import { sessionResponseSchema, type User } from './user';

/**
 * Who is signed in, kept outside React so that the next step (remembering the last user on
 * the device, so the app opens offline) changes this one module and no component.
 */

/** Why nobody is signed in: the guard sends a deliberate sign-out home, everyone else to /login. */
export type SignedOutReason = 'no-session' | 'signed-out';

export type SessionState =
  | { status: 'loading'; user: null }
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
  /** Ends the session on the server, then locally. Throws when the server could not be told. */
  signOut(): Promise<void>;
}

export function createSessionStore(): SessionStore {
  let state: SessionState = { status: 'loading', user: null };
  let started: Promise<void> | undefined;
  const listeners = new Set<() => void>();

  function set(next: SessionState) {
    state = next;
    for (const listener of listeners) listener();
  }

  async function fetchUser(): Promise<User | null> {
    try {
      const { user } = await request(apiPaths.session, { schema: sessionResponseSchema });
      return user;
    } catch (error) {
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
        // Unreachable server: for now we cannot know the user, so treat it as signed out.
        // The offline-first step replaces this with the user cached on the device.
        () => set({ status: 'signed-out', user: null, reason: 'no-session' }),
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
