import { describe, expect, it } from 'vitest';
import { shortStatusText, statusText, type SyncStatus } from './status';

const at = () => '14:05';

describe('sync status texts (spec §4)', () => {
  it.each<[SyncStatus, string, string]>([
    [{ state: 'synced', lastSyncAt: 1 }, 'All data synced (last sync 14:05)', 'All changes saved'],
    [{ state: 'syncing' }, 'Syncing data...', 'Syncing...'],
    [{ state: 'syncing', pulled: 3_000 }, 'Syncing data... (3,000 records so far)', 'Syncing...'],
    [{ state: 'syncing', pulled: 1 }, 'Syncing data... (1 record so far)', 'Syncing...'],
    [{ state: 'pending', count: 3 }, '3 changes pending sync', 'Syncing...'],
    [{ state: 'pending', count: 1 }, '1 change pending sync', 'Syncing...'],
    [{ state: 'pending', count: 3, offline: true }, '3 changes pending sync', 'Working offline'],
    [{ state: 'offline' }, 'You are offline', 'Working offline'],
    [{ state: 'error', message: 'x' }, 'Sync error occurred', 'Sync error'],
  ])('%j', (status, badge, short) => {
    expect(statusText(status, at)).toBe(badge);
    expect(shortStatusText(status)).toBe(short);
  });
});
