// One live query shared by every screen part that reads the same thing from one database.
// Each useLiveQuery runs its own query, and a ten-year device holds thousands of days: the
// dashboard, its header button and the history each read them all again (issue 30). Shared,
// they are read once per change, and a screen opened next finds them already read.
import { liveQuery } from 'dexie';

/** How long the query stays subscribed after its last reader leaves: the next screen reuses it. */
const KEEP_MS = 10_000;

export interface SharedLiveQuery<T> {
  subscribe(listener: () => void): () => void;
  /** The latest result; undefined until the first read completes. */
  getSnapshot(): T | undefined;
  /** What the query failed with, if it did: thrown where it is read, as useLiveQuery does. */
  error(): unknown;
}

export function sharedLiveQuery<T>(query: () => Promise<T>): SharedLiveQuery<T> {
  let value: T | undefined;
  let failure: unknown;
  const listeners = new Set<() => void>();
  let subscription: { unsubscribe(): void } | null = null;
  let stopTimer: ReturnType<typeof setTimeout> | null = null;
  const notify = () => {
    for (const listener of listeners) listener();
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      if (stopTimer) clearTimeout(stopTimer);
      stopTimer = null;
      subscription ??= liveQuery(query).subscribe({
        next: (next) => {
          value = next;
          failure = undefined;
          notify();
        },
        error: (error: unknown) => {
          failure = error;
          notify();
        },
      });
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0 || stopTimer) return;
        stopTimer = setTimeout(() => {
          stopTimer = null;
          if (listeners.size > 0) return;
          subscription?.unsubscribe();
          subscription = null;
          // Nobody keeps it current now: the next reader starts from a fresh read.
          value = undefined;
        }, KEEP_MS);
      };
    },
    getSnapshot: () => value,
    error: () => failure,
  };
}
