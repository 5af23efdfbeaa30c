// Follows the session: one sync handle for whoever is signed in, started on sign-in, stopped
// on sign-out or when someone else signs in on this device. Plain TypeScript, so the rules
// are tested without React.
import type { SessionState, SessionStore } from '@/lib/session/session-store';
import type { StartOptions, SyncHandle } from '@/sync/coordinator';

/**
 * Starts sync for one user. The app loads the sync engine (Dexie and all) only then, so a
 * signed-out visit to the landing or login page never downloads it: hence the promise.
 */
export type StartSync = (options: StartOptions) => SyncHandle | Promise<SyncHandle>;

export interface SyncManager {
  getHandle(): SyncHandle | null;
  subscribe(listener: () => void): () => void;
  /** Starts following the session (and syncing, if someone is signed in). */
  attach(): void;
  /** Stops following the session and stops syncing. */
  detach(): void;
}

/** Asks the browser not to evict this origin's storage: it holds unsent days of work. */
export function requestPersistentStorage(): void {
  try {
    void navigator.storage?.persist?.().catch(() => undefined);
  } catch {
    // Unsupported (or refused): data still lives in the best-effort store.
  }
}

export function createSyncManager(
  session: SessionStore,
  start: StartSync,
  persist: () => void = requestPersistentStorage,
): SyncManager {
  let handle: SyncHandle | null = null;
  let userId: string | null = null;
  /** Bumped whenever the user sync is for changes, so a start still loading can tell it is stale. */
  let generation = 0;
  let previous: SessionState['status'] | null = null;
  // Whether the signed-in user still had to choose a new password when last seen.
  let mustChange = false;
  let persisted = false;
  let unsubscribe: (() => void) | null = null;
  const listeners = new Set<() => void>();

  function publish(next: SyncHandle | null): void {
    handle = next;
    for (const listener of listeners) listener();
  }

  function stopCurrent(): void {
    generation += 1;
    userId = null;
    if (!handle) return;
    handle.stop();
    publish(null);
  }

  function onUnauthenticated(owner: SyncHandle | null): void {
    // The server says the session is gone: re-reading it through the session store marks the
    // user signed out (the guard then shows /login). The outbox stays for their next sign-in.
    session.refresh().then(
      (user) => {
        // A session that turns out to be fine after all (a cookie renewed meanwhile): carry on.
        if (user && handle === owner && user.id === userId) owner?.resume();
      },
      () => undefined, // Unreachable right now: sync stays paused until the next sign-in.
    );
  }

  function follow(): void {
    const state = session.getState();
    const before = previous;
    previous = state.status;
    if (state.status === 'loading') return;
    if (state.status === 'signed-out') {
      stopCurrent();
      return;
    }
    const wasBlocked = mustChange;
    mustChange = state.user.mustChangePassword;
    if (handle && userId === state.user.id) {
      // A fresh sign-in by the same user: sync may have been paused by a 401. A new password
      // chosen: sync may have been paused by a 403 password-change-required.
      if (before === 'signed-out' || (wasBlocked && !mustChange)) handle.resume();
      return;
    }
    if (userId === state.user.id) return; // already starting for this user
    stopCurrent();
    userId = state.user.id;
    const mine = generation;
    let started: SyncHandle | null = null;
    const begin = (ready: SyncHandle) => {
      // Signed out, or someone else signed in, while the engine was loading.
      if (mine !== generation) {
        ready.stop();
        return;
      }
      started = ready;
      // After a sign-in (not a page load), tell the tab that leads sync, if it was paused.
      if (before === 'signed-out') ready.resume();
      publish(ready);
    };
    const pending = start({ userId: state.user.id, onUnauthenticated: () => onUnauthenticated(started) });
    if (pending instanceof Promise) {
      pending.then(begin, (error: unknown) => {
        // The engine's code could not load (offline before the service worker had it): the
        // next session change tries again.
        if (mine === generation) userId = null;
        console.error('sync could not start', error);
      });
    } else {
      begin(pending);
    }
    if (!persisted) {
      persisted = true;
      persist();
    }
  }

  return {
    getHandle: () => handle,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    attach() {
      if (unsubscribe) return;
      unsubscribe = session.subscribe(follow);
      follow();
    },
    detach() {
      unsubscribe?.();
      unsubscribe = null;
      previous = null;
      stopCurrent();
    },
  };
}
