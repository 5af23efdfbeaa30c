import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from '@/lib/zod';
import { expectSameAsZod, usually } from '@/testing/same-as-zod';
import { validator } from './guards';
import { oidcFailureMessage, readOidcResult, runOidcPopup, type OidcOutcome, type PopupHost } from './oidc-popup';

const ORIGIN = 'https://dt.example';

/** A browser window stand-in: records what was opened and delivers messages to listeners. */
function fakeHost({ blocked = false } = {}) {
  const popup = { closed: false };
  const listeners = new Set<(event: MessageEvent) => void>();
  const opened: string[] = [];
  const host: PopupHost = {
    origin: ORIGIN,
    open: (url) => {
      opened.push(url);
      return blocked ? null : popup;
    },
    addEventListener: (_type, listener) => void listeners.add(listener),
    removeEventListener: (_type, listener) => void listeners.delete(listener),
  };
  const post = (data: unknown, origin = ORIGIN, source: unknown = popup) => {
    for (const listener of [...listeners]) listener({ data, origin, source } as MessageEvent);
  };
  return { host, popup, opened, listeners, post };
}

/** Where a promise stands, read after the fake clock (and its microtasks) moved on. */
function track(promise: Promise<OidcOutcome>) {
  const box: { value: OidcOutcome | 'pending' } = { value: 'pending' };
  void promise.then((value) => {
    box.value = value;
  });
  return box;
}

describe('OpenID sign-in popup', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens the start URL at once and resolves with the result posted by our own page', async () => {
    const fake = fakeHost();
    const outcome = runOidcPopup('/api/v1/auth/oidc/start', fake.host);
    expect(fake.opened).toEqual(['/api/v1/auth/oidc/start']);

    fake.post({ type: 'oidc-result', ok: true, isNewUser: true });

    await expect(outcome).resolves.toEqual({ kind: 'success', isNewUser: true });
    expect(fake.listeners.size).toBe(0);
  });

  it('ignores messages from other origins, other windows and of other shapes', async () => {
    const fake = fakeHost();
    const outcome = runOidcPopup('/start', fake.host);

    fake.post({ type: 'oidc-result', ok: true, isNewUser: false }, 'https://evil.example');
    fake.post({ type: 'oidc-result', ok: true, isNewUser: false }, ORIGIN, { closed: false });
    fake.post({ type: 'something-else', ok: true }, ORIGIN);
    fake.post('oidc-result', ORIGIN);
    const state = track(outcome);
    await vi.advanceTimersByTimeAsync(1000);
    expect(state.value).toBe('pending');

    fake.post({ type: 'oidc-result', ok: false, error: 'identity-in-use', message: 'This Google account is already linked to another account' });
    await expect(outcome).resolves.toEqual({
      kind: 'failed',
      code: 'identity-in-use',
      message: 'This Google account is already linked to another account',
    });
  });

  it('reports a blocked popup when window.open returns null', async () => {
    const fake = fakeHost({ blocked: true });
    await expect(runOidcPopup('/start', fake.host)).resolves.toEqual({ kind: 'blocked' });
    expect(fake.listeners.size).toBe(0);
  });

  it('reports a popup closed without a result, after seeing it closed twice', async () => {
    const fake = fakeHost();
    const outcome = runOidcPopup('/start', fake.host);
    const state = track(outcome);
    fake.popup.closed = true;
    await vi.advanceTimersByTimeAsync(400);
    expect(state.value).toBe('pending');
    await vi.advanceTimersByTimeAsync(400);
    await expect(outcome).resolves.toEqual({ kind: 'closed' });
    expect(fake.listeners.size).toBe(0);
  });

  it('still takes a result that arrives just after the popup closed itself', async () => {
    const fake = fakeHost();
    const outcome = runOidcPopup('/start', fake.host);
    fake.popup.closed = true;
    await vi.advanceTimersByTimeAsync(400);
    fake.post({ type: 'oidc-result', ok: true, isNewUser: false });
    await expect(outcome).resolves.toEqual({ kind: 'success', isNewUser: false });
  });

  it('words each failure with the provider label, falling back to the spec text', () => {
    expect(oidcFailureMessage({ kind: 'failed', code: 'invalid-token', message: undefined }, 'Google')).toBe('Failed to login with Google');
    expect(oidcFailureMessage({ kind: 'blocked' }, 'Google')).toMatch(/blocked.*pop-ups/);
    expect(oidcFailureMessage({ kind: 'closed' }, 'Google')).toMatch(/closed before signing in/);
  });
});

describe("the popup page's message", () => {
  // The zod schema readOidcResult replaced, as the reference it must agree with.
  const zodResult = z.discriminatedUnion('ok', [
    z.object({ type: z.literal('oidc-result'), ok: z.literal(true), isNewUser: z.boolean() }),
    z.object({ type: z.literal('oidc-result'), ok: z.literal(false), error: z.string(), message: z.string().optional() }),
  ]);

  it('agrees with the zod schema', () => {
    expectSameAsZod(
      validator(readOidcResult),
      zodResult,
      [
        { type: 'oidc-result', ok: true, isNewUser: true },
        { type: 'oidc-result', ok: false, error: 'access_denied', message: 'Denied' },
        { type: 'oidc-result', ok: false, error: 'x' },
        { type: 'oidc-result', ok: false, error: 'x', message: null },
        { type: 'oidc-result', ok: true },
        { type: 'other', ok: true, isNewUser: true },
        { type: 'oidc-result', ok: 'true', isNewUser: true },
        'oidc-result',
      ],
      fc.record(
        {
          type: usually(fc.constant('oidc-result')),
          ok: usually(fc.boolean()),
          isNewUser: fc.oneof(usually(fc.boolean()), fc.constant(undefined)),
          error: fc.oneof(usually(fc.string()), fc.constant(undefined)),
          message: fc.oneof(usually(fc.string()), fc.constant(undefined)),
        },
        { requiredKeys: [] },
      ),
    );
  });
});
