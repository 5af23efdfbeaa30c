import { Outlet } from 'react-router';
import { AlertDialog } from '@/components/alert-dialog';
import { AppHeader } from '@/components/app-header';
import { BottomNav } from '@/components/bottom-nav';
import { useSyncData } from '@/features/sync-data/use-sync-data';
import { useSession } from '@/lib/session/use-session';
import styles from './layouts.module.css';

/** The signed-in shell: header, the screen, bottom bar. */
export function AppLayout() {
  const session = useSession();
  const { syncing, sync, message, dismiss } = useSyncData();
  const user = session.status === 'signed-in' ? session.user : null;
  return (
    <div className={styles.appShell}>
      <AppHeader photoURL={user?.photoURL} syncing={syncing} onSync={() => void sync()} />
      <main className={styles.appMain}>
        <Outlet />
      </main>
      <BottomNav />
      <AlertDialog message={message} onClose={dismiss} />
    </div>
  );
}
