import { useState } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { AlertDialog } from '@/components/alert-dialog';
import { AppHeader } from '@/components/app-header';
import { BottomNav } from '@/components/bottom-nav';
import { ProBanner } from '@/components/pro-banner';
import { FullScreenSpinner } from '@/components/spinner';
import { SyncBadge } from '@/components/sync-badge';
import { LogDayButton } from '@/features/entries/log-day-button';
import { useSyncData } from '@/features/sync-data/use-sync-data';
import { routes } from '@/lib/paths';
import { isBannerSnoozed, snoozeBanner } from '@/lib/banner-snooze';
import { planOf, plansOn } from '@/lib/plans';
import { useSession } from '@/lib/session/use-session';
import { useProfile, useSessionFollowsProfile, useThemeSetting } from '@/lib/sync-react/use-profile';
import { useSyncBadge } from '@/lib/sync-react/use-sync-badge';
import { useOptionalSyncHandle, useSyncStatus } from '@/lib/sync-react/use-sync';
import styles from './layouts.module.css';

/** The signed-in shell: header, the screen, bottom bar, sync badge. */
export function AppLayout() {
  // Sync starts as the user signs in; the screens below all read through it.
  if (!useOptionalSyncHandle()) return <FullScreenSpinner />;
  return <SignedInShell />;
}

function SignedInShell() {
  const session = useSession();
  const { pathname } = useLocation();
  const { syncing, sync, message, dismiss } = useSyncData();
  const status = useSyncStatus();
  const badge = useSyncBadge(status);
  const profile = useProfile();
  useThemeSetting();
  useSessionFollowsProfile();
  const [bannerSnoozed, setBannerSnoozed] = useState(() => isBannerSnoozed(localStorage, Date.now()));
  const user = session.status === 'signed-in' ? session.user : null;
  // Free users get the house banner where the server has plans, unless they hid it this week;
  // not on the plans page itself, which says it all.
  const banner = plansOn(user) && profile !== undefined && planOf(profile.role) === 'free' && pathname !== routes.upgrade && !bannerSnoozed;
  return (
    <div className={styles.appShell}>
      <AppHeader photoURL={user?.photoURL} syncing={syncing} onSync={() => void sync()} action={<LogDayButton />} />
      {banner ? (
        <ProBanner
          onHide={() => {
            snoozeBanner(localStorage, Date.now());
            setBannerSnoozed(true);
          }}
        />
      ) : null}
      <main className={styles.appMain}>
        <Outlet />
      </main>
      <BottomNav />
      <SyncBadge status={status} visible={badge.visible} onDismiss={badge.dismiss} />
      <AlertDialog message={message} onClose={dismiss} />
      {/* A new screen opens at its top (the bottom bar would otherwise keep the old offset). */}
      <ScrollRestoration />
    </div>
  );
}
