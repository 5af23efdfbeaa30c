import { vi } from 'vitest';

/**
 * A stand-in for the server at the one boundary the app has: window.fetch.
 * Routes are 'METHOD /path' → handler; an unrouted call fails the test loudly.
 */
export type FakeHandler = (call: RecordedCall) => Response | Promise<Response>;

export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
  init: RequestInit | undefined;
}

export interface FakeFetch {
  fetch: typeof fetch;
  calls: RecordedCall[];
  /** Adds or replaces a route. */
  on(route: string, handler: FakeHandler): void;
  callsTo(route: string): RecordedCall[];
}

export function createFakeFetch(routes: Record<string, FakeHandler> = {}): FakeFetch {
  const handlers = new Map(Object.entries(routes));
  const calls: RecordedCall[] = [];

  const fake = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const call: RecordedCall = { method, path: url.pathname, body, init };
    calls.push(call);
    const handler = handlers.get(`${method} ${url.pathname}`);
    if (!handler) throw new Error(`fake fetch: no route for ${method} ${url.pathname}`);
    return handler(call);
  });

  return {
    fetch: fake as unknown as typeof fetch,
    calls,
    on: (route, handler) => void handlers.set(route, handler),
    callsTo: (route) => calls.filter((call) => `${call.method} ${call.path}` === route),
  };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/** The server's error shape (docs/api.md). */
export function apiError(
  status: number,
  code: string,
  message?: string,
  extra: { fields?: Record<string, string[]>; headers?: Record<string, string> } = {},
): Response {
  const error: Record<string, unknown> = { code };
  if (message !== undefined) error.message = message;
  if (extra.fields) error.fields = extra.fields;
  return json(status, { error }, extra.headers);
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}

/** What fetch does when there is no network: it rejects with a TypeError. */
export function networkFailure(): never {
  throw new TypeError('Failed to fetch');
}

/** A response that never arrives, to hold the app in its loading state. */
export function pending(): Promise<Response> {
  return new Promise<Response>(() => {});
}
