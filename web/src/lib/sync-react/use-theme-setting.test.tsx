import { act, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalDoc, SettingsData } from '@/sync/types';
import { createTestSyncHandle } from '@/testing/sync-handle';
import { SyncContext } from './sync-context';
import { useThemeSetting } from './use-profile';

function Probe() {
  useThemeSetting();
  return null;
}

const theme = () => document.documentElement.dataset.theme;
const server = (value: SettingsData['theme']): SettingsData => ({ theme: value, taxRegion: 'uk', quarters: 'standard', queryReminderDays: 14, updatedAt: '2025-03-21T09:00:00Z' });

afterEach(() => {
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});

describe('useThemeSetting', () => {
  it('applies the stored theme, a local choice, an acknowledged choice and a new server version', async () => {
    const handle = createTestSyncHandle();
    const put = (doc: LocalDoc) => act(() => handle.db.docs.put(doc));
    render(
      <SyncContext value={handle}>
        <Probe />
      </SyncContext>,
    );
    await waitFor(() => expect(theme()).toBe('dark')); // nothing stored: the default

    await put({ kind: 'settings', data: null, server: null, patch: { theme: 'light' }, version: 0, syncState: 'pending' });
    await waitFor(() => expect(theme()).toBe('light'));

    // The server took it: the engine keeps it as acknowledged until the next pull.
    await put({ kind: 'settings', data: null, server: null, acked: { theme: 'light' }, patch: { theme: 'light' }, version: 0, syncState: 'synced' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(theme()).toBe('light');

    await put({ kind: 'settings', data: server('light'), server: server('light'), patch: {}, version: 3, syncState: 'synced' });
    // Another device switched back to dark.
    await put({ kind: 'settings', data: server('dark'), server: server('dark'), patch: {}, version: 4, syncState: 'synced' });
    await waitFor(() => expect(theme()).toBe('dark'));
    expect(localStorage.getItem('delivery-tracker:theme')).toBe('dark');
  });
});
