import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, createFakeFetch, json } from '@/testing/fake-fetch';
import { makeUser } from '@/testing/fixtures';
import { createSessionStore } from './session-store';

const SESSION = 'GET /api/v1/auth/session';

describe('session store offline cache', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('remembers the signed-in user and opens offline as that user', async () => {
    const user = makeUser();
    const online = createFakeFetch({ [SESSION]: () => json(200, { user }) });
    vi.stubGlobal('fetch', online.fetch);
    await createSessionStore().start();

    const offline = createFakeFetch({
      [SESSION]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    vi.stubGlobal('fetch', offline.fetch);
    const store = createSessionStore();
    await store.start();
    expect(store.getState()).toEqual({ status: 'signed-in', user });
  });

  it('also survives a server that is down (5xx)', async () => {
    const user = makeUser();
    vi.stubGlobal('fetch', createFakeFetch({ [SESSION]: () => json(200, { user }) }).fetch);
    await createSessionStore().start();
    vi.stubGlobal('fetch', createFakeFetch({ [SESSION]: () => apiError(502, 'internal') }).fetch);
    const store = createSessionStore();
    await store.start();
    expect(store.getState().status).toBe('signed-in');
  });

  it('forgets the user when the server says the session ended', async () => {
    vi.stubGlobal('fetch', createFakeFetch({ [SESSION]: () => json(200, { user: makeUser() }) }).fetch);
    await createSessionStore().start();
    vi.stubGlobal('fetch', createFakeFetch({ [SESSION]: () => json(200, { user: null }) }).fetch);
    const store = createSessionStore();
    await store.start();
    expect(store.getState().status).toBe('signed-out');

    vi.stubGlobal('fetch', createFakeFetch({ [SESSION]: () => { throw new TypeError('offline'); } }).fetch);
    const later = createSessionStore();
    await later.start();
    expect(later.getState().status).toBe('signed-out');
  });

  it("also takes an older server's 401 for signed out", async () => {
    vi.stubGlobal('fetch', createFakeFetch({ [SESSION]: () => json(200, { user: makeUser() }) }).fetch);
    await createSessionStore().start();
    vi.stubGlobal('fetch', createFakeFetch({ [SESSION]: () => apiError(401, 'unauthenticated') }).fetch);
    const store = createSessionStore();
    await store.start();
    expect(store.getState().status).toBe('signed-out');
  });

  it('with nothing cached, an unreachable server means signed out', async () => {
    vi.stubGlobal('fetch', createFakeFetch({ [SESSION]: () => { throw new TypeError('offline'); } }).fetch);
    const store = createSessionStore();
    await store.start();
    expect(store.getState().status).toBe('signed-out');
  });
});

describe('session store readying a sign-in', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('readies the app as a sign-in is sent, and the user’s database before the server confirms it', async () => {
    const user = makeUser();
    const readied: (string | null)[] = [];
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal('fetch', createFakeFetch({ [SESSION]: () => new Promise<Response>((resolve) => (answer = resolve)) }).fetch);
    const store = createSessionStore({ prepare: (userId) => readied.push(userId) });

    store.signingIn();
    expect(readied).toEqual([null]);
    const confirmed = store.confirmSignIn(user);
    // Readied while the session check is still on its way; nobody is signed in yet.
    expect(readied).toEqual([null, user.id]);
    expect(store.getState().status).toBe('loading');

    answer(json(200, { user }));
    expect(await confirmed).toBe(true);
    expect(store.getState()).toEqual({ status: 'signed-in', user });
  });
});
