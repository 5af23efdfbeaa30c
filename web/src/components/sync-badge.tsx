import { CircleAlert, CircleCheck, Clock, RefreshCw, WifiOff, X, type LucideIcon } from 'lucide-react';
import { formatTime } from '@/lib/format';
import { statusText, type SyncStatus } from '@/sync/status';
import styles from './sync-badge.module.css';

const icons: Record<SyncStatus['state'], LucideIcon> = {
  synced: CircleCheck,
  syncing: RefreshCw,
  pending: Clock,
  offline: WifiOff,
  error: CircleAlert,
};

/**
 * The floating sync-status badge. The live region stays in the page while the badge is
 * hidden, so screen readers announce the text when it appears. `data-last-sync`: when this
 * device last synced, once it has (the device bench's mark for a first sync short enough that
 * the screen never drew it syncing).
 */
export function SyncBadge({ status, visible, onDismiss }: { status: SyncStatus; visible: boolean; onDismiss: () => void }) {
  const Icon = icons[status.state];
  return (
    <aside aria-label="Sync status" className={visible ? styles.badge : styles.idle} data-state={status.state} data-last-sync={status.state === 'synced' && status.lastSyncAt !== null ? status.lastSyncAt : undefined} data-sync-badge={visible ? 'shown' : 'idle'}>
      {visible ? <Icon aria-hidden="true" className={styles.icon} /> : null}
      <p role="status" aria-live="polite" className={styles.text}>
        {visible ? statusText(status, formatTime) : null}
      </p>
      {visible ? (
        <button type="button" className={styles.dismiss} onClick={onDismiss} aria-label="Dismiss">
          <X aria-hidden="true" />
        </button>
      ) : null}
    </aside>
  );
}
