import { act, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SyncBadge } from '@/components/sync-badge';
import type { SyncStatus } from '@/sync/status';
import { createTestSyncHandle, type TestSyncHandle } from '@/testing/sync-handle';
import { SyncContext } from './sync-context';
import { announces, BADGE_HIDE_AFTER_SYNCED_MS, useSyncBadge } from './use-sync-badge';
import { useSyncStatus } from './use-sync';

const synced = (lastSyncAt: number | null = null): SyncStatus => ({ state: 'synced', lastSyncAt });
const syncing: SyncStatus = { state: 'syncing' };
const ownSyncing: SyncStatus = { state: 'syncing', byDriver: true };
const offline: SyncStatus = { state: 'offline' };
const pending = (count: number): SyncStatus => ({ state: 'pending', count });
const error: SyncStatus = { state: 'error', message: 'boom' };

/** The badge as the app shell wires it. */
function Badge() {
  const status = useSyncStatus();
  const badge = useSyncBadge(status);
  return <SyncBadge status={status} visible={badge.visible} onDismiss={badge.dismiss} />;
}

let handle: TestSyncHandle;

function renderBadge() {
  render(
    <SyncContext value={handle}>
      <Badge />
    </SyncContext>,
  );
  return () => screen.getByRole('complementary', { name: 'Sync status' });
}

const emit = (status: SyncStatus) => act(() => handle.emit(status));

beforeEach(() => {
  vi.useFakeTimers();
  handle = createTestSyncHandle();
});

afterEach(() => vi.useRealTimers());

describe('sync badge', () => {
  it('is hidden at first, with its live region already in place', () => {
    const badge = renderBadge();
    expect(within(badge()).getByRole('status')).toHaveAttribute('aria-live', 'polite');
    expect(within(badge()).getByRole('status')).toBeEmptyDOMElement();
    expect(screen.queryByRole('button', { name: 'Dismiss' })).not.toBeInTheDocument();
  });

  it('appears on a status change with the spec texts', () => {
    const badge = renderBadge();
    emit(offline);
    expect(badge()).toHaveTextContent('You are offline');
    emit(pending(2));
    expect(badge()).toHaveTextContent('2 changes pending sync');
    emit(syncing);
    expect(badge()).toHaveTextContent('Syncing data...');
    emit(error);
    expect(badge()).toHaveTextContent('Sync error occurred');
  });

  it('shows the last-sync time when synced, then hides by itself 3 s later', () => {
    const badge = renderBadge();
    emit(offline);
    emit(syncing);
    emit(synced(new Date(2025, 2, 21, 14, 5).getTime()));
    expect(within(badge()).getByRole('status')).toHaveTextContent('All data synced (last sync 14:05)');

    // Spec §9: 3 s.
    expect(BADGE_HIDE_AFTER_SYNCED_MS).toBe(3_000);
    act(() => vi.advanceTimersByTime(2_999));
    expect(within(badge()).getByRole('status')).toHaveTextContent('All data synced');
    act(() => vi.advanceTimersByTime(1));
    expect(within(badge()).getByRole('status')).toBeEmptyDOMElement();
  });

  it('does not hide by itself while not synced', () => {
    const badge = renderBadge();
    emit(offline);
    act(() => vi.advanceTimersByTime(60_000));
    expect(badge()).toHaveTextContent('You are offline');
  });

  it('hides on Dismiss and comes back on the next change', () => {
    const badge = renderBadge();
    emit(error);
    act(() => screen.getByRole('button', { name: 'Dismiss' }).click());
    expect(within(badge()).getByRole('status')).toBeEmptyDOMElement();
    emit(offline);
    expect(badge()).toHaveTextContent('You are offline');
  });

  it('shows what sync already said when the shell mounts after it (pending changes offline), but not a quiet state', () => {
    handle.emit({ state: 'pending', count: 3, offline: true });
    const badge = renderBadge();
    expect(badge()).toHaveTextContent('3 changes pending sync');
  });

  it('stays hidden when the shell mounts on a device syncing quietly', () => {
    handle.emit(syncing);
    const badge = renderBadge();
    expect(within(badge()).getByRole('status')).toBeEmptyDOMElement();
  });

  it('stays quiet for the background round trip of a device already in sync', () => {
    const badge = renderBadge();
    emit(syncing);
    emit(synced(1));
    emit(syncing);
    emit(synced(2));
    expect(within(badge()).getByRole('status')).toBeEmptyDOMElement();
  });

  it('appears with the progress of a long pull (a first sync) on a quiet device, then hides 3 s after synced', () => {
    const badge = renderBadge();
    emit(syncing);
    expect(within(badge()).getByRole('status')).toBeEmptyDOMElement();
    emit({ state: 'syncing', pulled: 3_000 });
    expect(badge()).toHaveTextContent('Syncing data... (3,000 records so far)');
    emit({ state: 'syncing', pulled: 6_255 });
    expect(badge()).toHaveTextContent('Syncing data... (6,255 records so far)');
    emit(synced(new Date(2025, 2, 21, 14, 5).getTime()));
    expect(badge()).toHaveTextContent('All data synced (last sync 14:05)');
    act(() => vi.advanceTimersByTime(BADGE_HIDE_AFTER_SYNCED_MS));
    expect(within(badge()).getByRole('status')).toBeEmptyDOMElement();
  });

  it("appears when the driver's own save syncs on a device already in sync, then hides 3 s after synced", () => {
    const badge = renderBadge();
    emit(ownSyncing);
    expect(badge()).toHaveTextContent('Syncing data...');
    emit(synced(new Date(2025, 2, 21, 14, 5).getTime()));
    expect(badge()).toHaveTextContent('All data synced (last sync 14:05)');
    act(() => vi.advanceTimersByTime(BADGE_HIDE_AFTER_SYNCED_MS));
    expect(within(badge()).getByRole('status')).toBeEmptyDOMElement();
  });
});

describe('announces', () => {
  it.each([
    [synced(), syncing, 'synced', false],
    [syncing, synced(), 'synced', false],
    [synced(1), synced(2), 'synced', false],
    [offline, syncing, 'offline', true],
    [syncing, synced(), 'offline', true],
    [syncing, synced(), 'error', true],
    [synced(), offline, 'synced', true],
    [synced(), pending(1), 'synced', true],
    [pending(1), pending(2), 'pending', true],
    [pending(2), pending(2), 'pending', false],
    [syncing, error, 'synced', true],
    [synced(), ownSyncing, 'synced', true],
    [ownSyncing, synced(), 'synced', false],
  ] as const)('%o → %o (settled %s): %s', (previous, next, settled, expected) => {
    expect(announces(previous, next, settled)).toBe(expected);
  });
});
