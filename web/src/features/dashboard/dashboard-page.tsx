import { useMemo } from 'react';
import { Page } from '@/components/page';
import { StatCards } from '@/components/stat-cards';
import { WeeklyStats } from '@/components/weekly-stats';
import { useSession } from '@/lib/session/use-session';
import { EntryForm } from '@/features/entries/entry-form';
import { useEntries } from '@/features/entries/use-entries';
import { ParkedChanges } from '@/features/parked-changes/parked-changes';
import { parkedReasonsByRecord, useParkedChanges } from '@/features/parked-changes/use-parked-changes';
import { useProfile } from '@/lib/sync/use-profile';
import { useNow } from '@/lib/use-now';
import { localDay } from '@/lib/week';
import { GreetingCard } from './greeting-card';
import { RecentEntries } from './recent-entries';
import { dashboardStats } from './stats';
import styles from './dashboard.module.css';

/** Everything here reads the device's own store: it works the same with no signal. */
export function DashboardPage() {
  const session = useSession();
  const profile = useProfile();
  const now = useNow();
  const today = localDay(now);
  const entries = useEntries();
  const parked = useParkedChanges();
  const stats = useMemo(() => (entries ? dashboardStats(entries, today) : null), [entries, today]);
  const parkedReasons = useMemo(() => parkedReasonsByRecord(parked), [parked]);

  return (
    <Page title="Dashboard">
      <GreetingCard displayName={profile?.displayName ?? session.user?.displayName} now={now} isNew={entries ? entries.length === 0 : null} />
      <StatCards stats={stats} />
      {parked && parked.length > 0 ? <ParkedChanges changes={parked} /> : null}
      <div className={styles.logArea}>
        {/* The driver's own tiers (payment settings), or the default ones. */}
        <EntryForm tiers={profile?.tiers} />
        <RecentEntries entries={entries} parkedReasons={parkedReasons} />
      </div>
      <WeeklyStats stats={stats} today={today} />
    </Page>
  );
}
