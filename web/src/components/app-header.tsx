import { RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { routes } from '@/lib/paths';
import { Avatar } from './avatar';
import styles from './app-header.module.css';

interface AppHeaderProps {
  photoURL: string | null | undefined;
  syncing: boolean;
  onSync: () => void;
  /** What is always one tap away on every screen (the "+" that logs a day). */
  action?: ReactNode;
}

export function AppHeader({ photoURL, syncing, onSync, action }: AppHeaderProps) {
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <Link to={routes.dashboard} className={styles.title}>
          Delivery Tracker
        </Link>
        <div className={styles.actions}>
          {action}
          {/* aria-disabled, not disabled: a disabled button drops focus, and the result dialog
              must hand focus back to it when it closes. useSyncData ignores a tap while busy. */}
          <button type="button" className={styles.sync} title="Sync Data" onClick={onSync} aria-disabled={syncing} aria-busy={syncing}>
            <RefreshCw aria-hidden="true" className={syncing ? styles.spinning : undefined} />
            <span className={styles.syncLabel}>Sync Data</span>
          </button>
          <Link to={routes.profile} className={styles.avatarLink} aria-label="Open profile">
            <Avatar photoURL={photoURL} />
          </Link>
        </div>
      </div>
    </header>
  );
}
