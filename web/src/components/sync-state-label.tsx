import { Check, CircleAlert, Clock } from 'lucide-react';
import type { RecordSyncState } from '@/sync/types';
import styles from './sync-state-label.module.css';

/**
 * Where a record stands with the server, in words and not only colour: a quiet tick when
 * synced, "Waiting to sync", or "Not synced" with the server's reason.
 */
export function SyncStateLabel({ state, reason }: { state: RecordSyncState; reason?: string | undefined }) {
  switch (state) {
    case 'synced':
      return (
        <span className={styles.synced} title="Synced">
          <Check aria-hidden="true" />
          <span className="visually-hidden">Synced</span>
        </span>
      );
    case 'pending':
      return (
        <span className={styles.pending}>
          <Clock aria-hidden="true" />
          Waiting to sync
        </span>
      );
    case 'parked':
      return (
        <span className={styles.parked}>
          <CircleAlert aria-hidden="true" />
          <span>Not synced{reason ? `: ${reason}` : ''}</span>
        </span>
      );
  }
}
