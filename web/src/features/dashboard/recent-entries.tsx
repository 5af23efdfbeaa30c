import { useId } from 'react';
import { ButtonLink } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { EntryList } from '@/features/entries/entry-list';
import { routes } from '@/lib/paths';
import type { LocalCourier, LocalEntry } from '@/sync/types';
import panel from '@/components/panel.module.css';

/** Spec §9: Recent Entries shows 3; "View all entries (n)" appears above 3. */
export const RECENT_ENTRIES = 3;

/** `entries` newest first (undefined while being read). */
export function RecentEntries({
  entries,
  parkedReasons,
  couriers,
}: {
  entries: LocalEntry[] | undefined;
  parkedReasons: ReadonlyMap<string, string>;
  /** Named on each day when there is more than one. */
  couriers: readonly LocalCourier[] | undefined;
}) {
  const headingId = useId();
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
        <EntryList entries={entries.slice(0, RECENT_ENTRIES)} parkedReasons={parkedReasons} couriers={couriers} />
      )}
      {entries && entries.length > RECENT_ENTRIES ? (
        <ButtonLink to={routes.history} variant="secondary" block>
          View all entries ({entries.length})
        </ButtonLink>
      ) : null}
    </section>
  );
}
