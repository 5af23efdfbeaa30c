import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api';
import { pullPageSchema, syncFailureOf } from './api';
import { entryFieldsBeforeCouriers } from './default-courier';

const entry = { date: '2025-03-21', stops: 120, extra: 550, notes: '', total: 23_760, ...entryFieldsBeforeCouriers('u1'), createdAt: 'c', updatedAt: 'u' };

describe('pullPageSchema', () => {
  it('keeps the kinds this version knows and leaves out the ones it does not', () => {
    const page = pullPageSchema.parse({
      changes: [
        { kind: 'entry', id: 'e1', version: 1, deleted: false, data: entry },
        { kind: 'fuelCard', id: 'f1', version: 2, deleted: false, data: { litres: 12 } },
        { kind: 'invoice', id: 'i1', version: 3, deleted: true },
      ],
      cursor: 3,
      hasMore: false,
    });
    expect(page.changes.map((change) => change.id)).toEqual(['e1', 'i1']);
    expect(page.cursor).toBe(3);
  });

  it('refuses a page whose known change does not have the shape the server promises', () => {
    const bad = { kind: 'entry', id: 'e1', version: 1, deleted: false, data: { ...entry, stops: '120' } };
    expect(pullPageSchema.safeParse({ changes: [bad], cursor: 1, hasMore: false }).success).toBe(false);
    expect(pullPageSchema.safeParse({ changes: [], cursor: '1', hasMore: false }).success).toBe(false);
  });
});

describe('the settings document in a pull', () => {
  it('reads the tax region, and a server from before it as the UK bands', () => {
    const settings = (data: Record<string, unknown>) => pullPageSchema.parse({ changes: [{ kind: 'settings', id: 'u1', version: 4, deleted: false, data }], cursor: 4, hasMore: false }).changes[0];
    expect(settings({ theme: 'light', taxRegion: 'scotland', updatedAt: 'u' })).toMatchObject({ data: { theme: 'light', taxRegion: 'scotland' } });
    expect(settings({ theme: 'light', updatedAt: 'u' })).toMatchObject({ data: { theme: 'light', taxRegion: 'uk' } });
    expect(pullPageSchema.safeParse({ changes: [{ kind: 'settings', id: 'u1', version: 4, deleted: false, data: { theme: 'light', taxRegion: 'wales', updatedAt: 'u' } }], cursor: 4, hasMore: false }).success).toBe(false);
  });
});

describe('syncFailureOf', () => {
  it('tells the engine what each failed request means', () => {
    expect(syncFailureOf(new ApiError({ status: 0, code: 'network' }))).toEqual({ kind: 'offline' });
    expect(syncFailureOf(new ApiError({ status: 401, code: 'unauthenticated' }))).toEqual({ kind: 'unauthenticated' });
    expect(syncFailureOf(new ApiError({ status: 429, code: 'rate-limited', retryAfter: 45 }))).toEqual({ kind: 'server', status: 429, retryAfterMs: 45_000 });
    expect(syncFailureOf(new ApiError({ status: 503, code: 'unknown' }))).toEqual({ kind: 'server', status: 503 });
    expect(syncFailureOf(new ApiError({ status: 200, code: 'invalid-response' }))).toEqual({ kind: 'server', status: 200 });
    expect(syncFailureOf(new ApiError({ status: 413, code: 'too-large', message: 'Too large' }))).toEqual({ kind: 'refused', status: 413, message: 'Too large' });
    expect(syncFailureOf(new ApiError({ status: 403, code: 'unknown' }))).toEqual({ kind: 'refused', status: 403, message: 'Request refused (403)' });
    expect(syncFailureOf(new TypeError('boom'))).toBeNull();
  });
});
