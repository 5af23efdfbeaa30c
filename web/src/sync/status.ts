// The five sync states of the spec (§4 "Sync status") and their texts.
import { plural } from '../lib/plural';
export type SyncStatus =
  | { state: 'synced'; lastSyncAt: number | null }
  /**
   * `byDriver` marks a round trip the driver caused (their own save, or Sync Data): the badge
   * shows it even on a device that was already in sync.
   */
  /** `pulled`: records brought in so far by a pull of many pages (a first sync: issue 30). */
  | { state: 'syncing'; byDriver?: boolean; pulled?: number }
  /** `offline` is set when the changes are waiting for the network rather than for the server. */
  | { state: 'pending'; count: number; offline?: boolean }
  | { state: 'offline' }
  | { state: 'error'; message: string };

export function statusText(status: SyncStatus, formatTime: (ms: number) => string): string {
  switch (status.state) {
    case 'synced':
      return status.lastSyncAt === null ? 'All data synced' : `All data synced (last sync ${formatTime(status.lastSyncAt)})`;
    case 'syncing':
      return status.pulled ? `Syncing data... (${status.pulled.toLocaleString('en-GB')} ${plural(status.pulled, 'record')} so far)` : 'Syncing data...';
    case 'pending':
      return `${status.count} ${plural(status.count, 'change')} pending sync`;
    case 'offline':
      return 'You are offline';
    case 'error':
      return 'Sync error occurred';
  }
}

/** The entry form's short indicator (spec §4). */
export function shortStatusText(status: SyncStatus): string {
  switch (status.state) {
    case 'syncing':
      return 'Syncing...';
    case 'synced':
      return 'All changes saved';
    case 'offline':
      return 'Working offline';
    case 'error':
      return 'Sync error';
    case 'pending':
      return status.offline ? 'Working offline' : 'Syncing...';
  }
}
