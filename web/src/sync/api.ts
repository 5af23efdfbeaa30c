// The sync endpoints. Failures are classified here so the engine can decide what to do:
// offline and server trouble retry, 401 waits for sign-in, a refused request parks.
import type { MutationResult, OutboxItem, PullPage } from './types';

export type SyncFailure =
  | { kind: 'offline' }
  | { kind: 'unauthenticated' }
  /** `retryAfterMs`: the server asked to come back no sooner (429 with Retry-After). */
  | { kind: 'server'; status: number; retryAfterMs?: number }
  | { kind: 'refused'; status: number; message: string };

export class SyncError extends Error {
  constructor(readonly failure: SyncFailure) {
    super(failure.kind === 'refused' ? failure.message : `sync ${failure.kind}`);
  }
}

export interface SyncApi {
  push(clientId: string, items: OutboxItem[]): Promise<MutationResult[]>;
  pull(cursor: number, limit: number): Promise<PullPage>;
}

type Fetch = typeof fetch;

async function call(fetchImpl: Fetch, input: string, init?: RequestInit): Promise<unknown> {
  let response: Response;
  try {
    response = await fetchImpl(input, { credentials: 'same-origin', ...init });
  } catch {
    throw new SyncError({ kind: 'offline' });
  }
  if (response.status === 401) throw new SyncError({ kind: 'unauthenticated' });
  if (response.status === 429) {
    // A quota that refills with time (push volume, rate limits): send the same thing later.
    const seconds = Number(response.headers.get('Retry-After'));
    const retryAfterMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
    throw new SyncError({ kind: 'server', status: 429, retryAfterMs });
  }
  if (response.status >= 500 || response.status === 408) {
    throw new SyncError({ kind: 'server', status: response.status });
  }
  if (!response.ok) {
    let message = `Request refused (${response.status})`;
    try {
      const body = (await response.json()) as { error?: { message?: string } };
      message = body.error?.message ?? message;
    } catch {
      // Non-JSON refusal (a proxy's page): keep the status text.
    }
    throw new SyncError({ kind: 'refused', status: response.status, message });
  }
  try {
    return await response.json();
  } catch {
    // A captive portal or proxy answered with something that is not our API.
    throw new SyncError({ kind: 'server', status: response.status });
  }
}

export function httpSyncApi(fetchImpl: Fetch = (...args) => fetch(...args)): SyncApi {
  return {
    async push(clientId, items) {
      const body = JSON.stringify({
        clientId,
        mutations: items.map((i) => ({ id: i.mutationId, name: i.name, args: i.args })),
      });
      const reply = (await call(fetchImpl, '/api/v1/sync/push', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })) as { results: MutationResult[] };
      return reply.results;
    },
    async pull(cursor, limit) {
      return (await call(fetchImpl, `/api/v1/sync/pull?cursor=${cursor}&limit=${limit}`)) as PullPage;
    },
  };
}
