import { Gauge, Receipt } from 'lucide-react';
import { useMemo } from 'react';
import { ButtonLink } from '@/components/button';
import { Page } from '@/components/page';
import { PaySummaryPanel } from '@/components/pay-summary';
import { StatCards } from '@/components/stat-cards';
import { WeeklyStats } from '@/components/weekly-stats';
import { useSession } from '@/lib/session/use-session';
import { LoggedTwice } from '@/features/entries/logged-twice';
import { useEntries } from '@/features/entries/use-entries';
import { ParkedChanges } from '@/features/parked-changes/parked-changes';
import { LOG_DAY_ANCHOR } from '@/core/reminders/reminders';
import { RemindersCard } from '@/features/reminders/reminders-card';
import { parkedReasonsByRecord, useParkedChanges } from '@/features/parked-changes/use-parked-changes';
import { spendingView } from '@/lib/paths';
import { usePaySetup } from '@/lib/sync-react/use-pay-setup';
import { useProfile } from '@/lib/sync-react/use-profile';
import { useNow } from '@/lib/use-now';
import { addDays, localDay, weekStart } from '@/lib/week';
import { GreetingCard } from './greeting-card';
import { RecentEntries } from './recent-entries';
import { TodayCard } from './today-card';
import { dashboardStats, weekPay } from '@/core/pay-summaries/dashboard-stats';
import styles from './dashboard.module.css';

/** Everything here reads the device's own store: it works the same with no signal. */
export function DashboardPage() {
  const session = useSession();
  const profile = useProfile();
  const now = useNow();
  const today = localDay(now);
  const entries = useEntries();
  const parked = useParkedChanges();
  const pay = usePaySetup();
  const week = useMemo(
    () => (entries && pay ? weekPay(entries, pay.deductions, today, pay.couriers.map((c) => c.id)) : null),
    [entries, pay, today],
  );
  const stats = useMemo(() => (entries ? { ...dashboardStats(entries, today, pay?.cards), weekDeductions: week?.deductions ?? 0 } : null), [entries, today, week, pay]);
  const parkedReasons = useMemo(() => parkedReasonsByRecord(parked), [parked]);

  return (
    <Page title="Dashboard">
      {/* Today's entry first (issue 26): the daily job, above the greeting and the figures. */}
      <div id={LOG_DAY_ANCHOR} className={styles.logArea}>
        <TodayCard today={today} entries={entries} pay={pay} />
      </div>
      <GreetingCard displayName={profile?.displayName ?? session.user?.displayName} now={now} isNew={entries ? entries.length === 0 : null} />
      <RemindersCard />
      <LoggedTwice entries={entries} pay={pay} />
      <StatCards stats={stats} />
      <PaySummaryPanel title="This week's pay" summary={week} from={weekStart(today)} to={addDays(weekStart(today), 6)} couriers={pay?.couriers ?? []} />
      {parked && parked.length > 0 ? <ParkedChanges changes={parked} /> : null}
      <div className={styles.quickActions}>
        <ButtonLink variant="secondary" to={spendingView('expenses', true)}>
          <Receipt aria-hidden="true" />
          Add expense
        </ButtonLink>
        <ButtonLink variant="secondary" to={spendingView('mileage', true)}>
          <Gauge aria-hidden="true" />
          Log mileage
        </ButtonLink>
      </div>
      <RecentEntries entries={entries} parkedReasons={parkedReasons} pay={pay} />
      <WeeklyStats stats={stats} today={today} />
    </Page>
  );
}
