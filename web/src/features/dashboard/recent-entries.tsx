import { useId, useMemo } from 'react';
import { ButtonLink } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { EntryList } from '@/features/entries/entry-list';
import { firstDays } from '@/features/entries/same-day';
import { formatCount } from '@/lib/format';
import { routes } from '@/lib/paths';
import type { PaySetup } from '@/lib/sync-react/use-pay-setup';
import type { LocalEntry } from '@/sync/types';
import panel from '@/components/panel.module.css';

/** Spec §9: Recent Entries shows 3; "View all entries (n)" appears above 3. A day's shifts show as one. */
export const RECENT_ENTRIES = 3;

/** `entries` newest first (undefined while being read). */
export function RecentEntries({
  entries,
  parkedReasons,
  pay,
}: {
  entries: LocalEntry[] | undefined;
  parkedReasons: ReadonlyMap<string, string>;
  /** Couriers (named on each day when there is more than one) and cards (a capped day says why). */
  pay: PaySetup | undefined;
}) {
  const headingId = useId();
  // Only the first days are grouped, once per change of the entries, not on every render of
  // the dashboard (ten years hold thousands of days: issue 30).
  const recent = useMemo(() => (entries ? firstDays(entries, RECENT_ENTRIES) : { days: [], more: false }), [entries]);
  const shown = useMemo(() => recent.days.flatMap((day) => day.entries), [recent]);
  return (
    <section className={panel.panel} aria-labelledby={headingId}>
      <h2 id={headingId} className={panel.panelTitle}>
        Recent Entries
      </h2>
      {entries === undefined ? (
        <Spinner />
      ) : entries.length === 0 ? (
        <p className={panel.muted}>No entries yet. Your logged days will show here.</p>
      ) : (
        <EntryList entries={shown} parkedReasons={parkedReasons} pay={pay} />
      )}
      {entries && recent.more ? (
        <ButtonLink to={routes.history} variant="secondary" block>
          View all entries ({formatCount(entries.length)})
        </ButtonLink>
      ) : null}
    </section>
  );
}
