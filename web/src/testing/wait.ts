/**
 * How long a test waits for a condition (findBy, waitFor, vi.waitFor) before it fails.
 * Generous on purpose: on a loaded 2-core machine a sign-in, a pull, an IndexedDB write and a
 * render can take seconds between them, and a passing test never waits for the whole of it.
 * One value for the suite, so waits are not tuned test by test.
 */
export const WAIT_MS = 10_000;

/** Options for vi.waitFor, which has no suite-wide setting. */
export const WAIT = { timeout: WAIT_MS } as const;
