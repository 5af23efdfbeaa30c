import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { z } from '@/lib/zod';
import { apiError, createFakeFetch, json, networkFailure, noContent } from '@/testing/fake-fetch';
import { expectSameAsZod, usually } from '@/testing/same-as-zod';
import { ApiError, parseRetryAfter, readErrorBody, request } from './api';
import { validator } from './guards';

function serve(routes: Parameters<typeof createFakeFetch>[0]) {
  const server = createFakeFetch(routes);
  vi.stubGlobal('fetch', server.fetch);
  return server;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('request', () => {
  it('sends JSON with the same-origin cookie and parses the body with the schema', async () => {
    const server = serve({ 'POST /api/thing': () => json(200, { n: 1, extra: 'ignored' }) });

    const result = await request('/api/thing', { method: 'POST', body: { a: 1 }, schema: z.object({ n: z.number() }) });

    expect(result).toEqual({ n: 1 });
    const [call] = server.calls;
    expect(call?.body).toEqual({ a: 1 });
    expect(call?.init?.credentials).toBe('same-origin');
    expect(call?.init?.headers).toMatchObject({ 'Content-Type': 'application/json', Accept: 'application/json' });
  });

  it('resolves undefined for 204 No Content', async () => {
    serve({ 'POST /api/v1/auth/logout': () => noContent() });
    await expect(request('/api/v1/auth/logout', { method: 'POST' })).resolves.toBeUndefined();
  });

  it('turns the server error shape into an ApiError with code, message and fields', async () => {
    serve({
      'POST /api/x': () =>
        apiError(422, 'validation', 'Please check the form', { fields: { email: ['Invalid email address'] } }),
    });

    const error = await failure(request('/api/x', { method: 'POST', body: {} }));

    expect(error.status).toBe(422);
    expect(error.code).toBe('validation');
    expect(error.message).toBe('Please check the form');
    expect(error.fields).toEqual({ email: ['Invalid email address'] });
    expect(error.retryAfter).toBeUndefined();
  });

  it('reads Retry-After seconds from a 429', async () => {
    serve({ 'POST /api/x': () => apiError(429, 'rate-limited', 'Too many attempts', { headers: { 'Retry-After': '42' } }) });

    const error = await failure(request('/api/x', { method: 'POST' }));

    expect(error).toMatchObject({ status: 429, code: 'rate-limited', message: 'Too many attempts', retryAfter: 42 });
  });

  it('keeps an empty message when the server sends none, so callers can fall back', async () => {
    serve({ 'GET /api/x': () => apiError(500, 'internal') });
    const error = await failure(request('/api/x'));
    expect(error).toMatchObject({ status: 500, code: 'internal', message: '' });
  });

  it('reports a non-JSON error body (a proxy page) as code unknown', async () => {
    serve({ 'GET /api/x': () => new Response('<h1>Bad Gateway</h1>', { status: 502 }) });
    const error = await failure(request('/api/x'));
    expect(error).toMatchObject({ status: 502, code: 'unknown', message: '' });
  });

  it('reports a JSON body of another shape as code unknown', async () => {
    serve({ 'GET /api/x': () => json(400, { message: 'nope' }) });
    const error = await failure(request('/api/x'));
    expect(error).toMatchObject({ status: 400, code: 'unknown' });
  });

  it('reports a failed connection as code network with status 0', async () => {
    serve({ 'GET /api/x': networkFailure });
    const error = await failure(request('/api/x'));
    expect(error).toMatchObject({ status: 0, code: 'network', message: '' });
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('reports a success body that does not match the schema as invalid-response', async () => {
    serve({ 'GET /api/x': () => json(200, { n: 'one' }) });
    const error = await failure(request('/api/x', { schema: z.object({ n: z.number() }) }));
    expect(error).toMatchObject({ status: 200, code: 'invalid-response' });
  });
});

describe('the server error shape', () => {
  // The zod schema readErrorBody replaced, as the reference it must agree with.
  const zodErrorBody = z.object({
    error: z.object({
      code: z.string().min(1),
      message: z.string().optional(),
      fields: z.record(z.string(), z.array(z.string())).optional(),
    }),
  });

  it('agrees with the zod schema', () => {
    expectSameAsZod(
      validator((body) => {
        const error = readErrorBody(body);
        return error && { error };
      }),
      zodErrorBody,
      [
        { error: { code: 'validation', message: 'Check the form', fields: { email: ['Invalid'] } } },
        { error: { code: 'internal' } },
        { error: { code: '' } },
        { error: { code: 'x', message: null } },
        { error: { code: 'x', fields: { email: 'Invalid' } } },
        { error: { code: 'x', fields: [] } },
        // zod skips a `__proto__` key, whatever it holds (fast-check found this one).
        JSON.parse('{"error":{"code":" ","fields":{"__proto__":[],"email":["Invalid"]}}}'),
        JSON.parse('{"error":{"code":" ","fields":{"__proto__":5}}}'),
        { message: 'nope' },
        null,
      ],
      fc.record({
        error: fc.oneof(
          fc.record(
            {
              code: usually(fc.string({ maxLength: 2 })),
              message: fc.oneof(usually(fc.string()), fc.constant(undefined)),
              fields: fc.oneof(usually(fc.dictionary(fc.string(), usually(fc.array(usually(fc.string()))))), fc.constant(undefined)),
            },
            { requiredKeys: [] },
          ),
          fc.anything(),
        ),
      }),
    );
  });
});

describe('parseRetryAfter', () => {
  it('accepts delay-seconds and HTTP dates, ignores junk', () => {
    const now = Date.parse('2025-03-21T12:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Fri, 21 Mar 2025 12:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Fri, 21 Mar 2025 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
