import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionStore, type SessionStore } from '@/lib/session/session-store';
import type { StartOptions, SyncHandle } from '@/sync/coordinator';
import { createFakeFetch, json, networkFailure, type FakeFetch } from '@/testing/fake-fetch';
import { makeUser } from '@/testing/fixtures';
import { WAIT } from '@/testing/wait';
import { createSyncManager, type SyncManager } from './sync-manager';

interface Started {
  options: StartOptions;
  handle: SyncHandle & { stop: ReturnType<typeof vi.fn>; resume: ReturnType<typeof vi.fn> };
}

const SESSION = 'GET /api/v1/auth/session';
const sam = makeUser({ id: 'user-sam' });
const alex = makeUser({ id: 'user-alex', displayName: 'Alex' });

let server: FakeFetch;
let session: SessionStore;
let started: Started[];
let persist: ReturnType<typeof vi.fn<() => void>>;
let manager: SyncManager;

function start(options: StartOptions): SyncHandle {
  const handle = {
    db: {} as SyncHandle['db'],
    status: { state: 'synced', lastSyncAt: null } as const,
    subscribe: () => () => undefined,
    requestSync: vi.fn(),
    syncNow: vi.fn(async () => true),
    resume: vi.fn(),
    stop: vi.fn(),
  };
  started.push({ options, handle });
  return handle;
}

beforeEach(() => {
  localStorage.clear();
  server = createFakeFetch({ [SESSION]: () => json(200, { user: sam }) });
  vi.stubGlobal('fetch', server.fetch);
  session = createSessionStore();
  started = [];
  persist = vi.fn<() => void>();
  manager = createSyncManager(session, start, persist);
});

afterEach(() => manager.detach());

describe('createSyncManager', () => {
  it('starts nothing until someone is signed in', async () => {
    server.on(SESSION, () => json(200, { user: null }));
    manager.attach();
    await session.start();
    expect(started).toHaveLength(0);
    expect(manager.getHandle()).toBeNull();
  });

  it('starts sync for the signed-in user, once, and asks for persistent storage', async () => {
    const listener = vi.fn();
    manager.subscribe(listener);
    manager.attach();
    await session.start();

    expect(started).toHaveLength(1);
    expect(started[0]?.options.userId).toBe('user-sam');
    expect(manager.getHandle()).toBe(started[0]?.handle);
    expect(listener).toHaveBeenCalled();
    expect(persist).toHaveBeenCalledTimes(1);

    session.signedIn(sam); // the same user again: nothing new
    expect(started).toHaveLength(1);
    expect(started[0]?.handle.resume).not.toHaveBeenCalled();
  });

  it('stops on sign-out and starts afresh for the next user', async () => {
    manager.attach();
    await session.start();
    const first = started[0]!.handle;

    server.on('POST /api/v1/auth/logout', () => new Response(null, { status: 204 }));
    await session.signOut();
    expect(first.stop).toHaveBeenCalledTimes(1);
    expect(manager.getHandle()).toBeNull();

    session.signedIn(alex);
    expect(started).toHaveLength(2);
    expect(started[1]?.options.userId).toBe('user-alex');
    expect(manager.getHandle()).toBe(started[1]?.handle);
    // A sign-in (not a page load) also wakes a leader tab that a 401 paused.
    expect(started[1]?.handle.resume).toHaveBeenCalledTimes(1);
    expect(persist).toHaveBeenCalledTimes(1);
  });

  it('switches handles when a different user signs in without a sign-out between', async () => {
    manager.attach();
    await session.start();
    session.signedIn(alex);
    expect(started[0]?.handle.stop).toHaveBeenCalledTimes(1);
    expect(started[1]?.options.userId).toBe('user-alex');
  });

  it('marks the session signed out through the session store when the server says 401', async () => {
    manager.attach();
    await session.start();
    server.on(SESSION, () => json(200, { user: null }));

    started[0]?.options.onUnauthenticated?.();

    await vi.waitFor(() => expect(session.getState()).toMatchObject({ status: 'signed-out', reason: 'no-session' }), WAIT);
    expect(started[0]?.handle.stop).toHaveBeenCalledTimes(1);
    expect(manager.getHandle()).toBeNull();

    // Signing in again starts sync again (the outbox waited in the user's database).
    session.signedIn(sam);
    expect(started).toHaveLength(2);
    expect(started[1]?.handle.resume).toHaveBeenCalledTimes(1);
  });

  it('resumes the paused handle when the session turns out to be valid after all', async () => {
    manager.attach();
    await session.start();
    started[0]?.options.onUnauthenticated?.();
    await vi.waitFor(() => expect(started[0]?.handle.resume).toHaveBeenCalledTimes(1), WAIT);
    expect(session.getState().status).toBe('signed-in');
  });

  it('resumes the same handle once a temporary password has been replaced', async () => {
    server.on(SESSION, () => json(200, { user: { ...sam, mustChangePassword: true } }));
    manager.attach();
    await session.start();
    const handle = started[0]!.handle;
    expect(handle.resume).not.toHaveBeenCalled();

    // The new password is chosen; the session is re-read.
    server.on(SESSION, () => json(200, { user: sam }));
    await session.refresh();
    expect(started).toHaveLength(1);
    expect(handle.resume).toHaveBeenCalledTimes(1);
    await session.refresh();
    expect(handle.resume).toHaveBeenCalledTimes(1);
  });

  it('keeps the session when the server cannot be reached to check it', async () => {
    manager.attach();
    await session.start();
    server.on(SESSION, networkFailure);
    started[0]?.options.onUnauthenticated?.();
    await vi.waitFor(() => expect(server.callsTo(SESSION)).toHaveLength(2), WAIT);
    expect(session.getState().status).toBe('signed-in');
    expect(started[0]?.handle.stop).not.toHaveBeenCalled();
  });

  it('stops sync when detached', async () => {
    manager.attach();
    await session.start();
    manager.detach();
    expect(started[0]?.handle.stop).toHaveBeenCalledTimes(1);
    session.signedIn(alex);
    expect(started).toHaveLength(1);
  });
});
