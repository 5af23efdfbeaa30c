import { z } from 'zod';

// zod probes `new Function` to decide whether to compile its parsers, which our CSP
// (script-src 'self', no 'unsafe-eval') refuses, and the browser reports as a CSP issue on
// every page. The interpreted parsers are fast enough for our payloads. zod builds a parser as
// its schema is made, when the module that makes it loads; every such module imports z from
// here (ESLint holds them to it), so this runs first. zod itself loads only with the screens
// that use it: the first load checks its few answers by hand (lib/guards.ts).
z.config({ jitless: true });

export { z };

/**
 * A schema made the first time it is asked for, then kept, rather than when its module loads:
 * the generated contract's schemas (sync/contract.generated.ts) are only read once a change is.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}
