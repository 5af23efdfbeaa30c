import { ArrowLeft } from 'lucide-react';
import { useMemo } from 'react';
import { ButtonLink } from '@/components/button';
import { EntryList } from '@/components/entry-list';
import { Page } from '@/components/page';
import { Spinner } from '@/components/spinner';
import { routes } from '@/lib/paths';
import { parkedReasonsByRecord, useEntries, useParkedChanges } from '@/lib/sync/use-entries';
import styles from './history-page.module.css';

// A plain newest-first list for now; the history issue adds search by date range, edit and delete.
export function HistoryPage() {
  const entries = useEntries();
  const parked = useParkedChanges();
  const parkedReasons = useMemo(() => parkedReasonsByRecord(parked), [parked]);
  return (
    <Page
      title="All Entries"
      intro={entries ? `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}, newest first` : null}
    >
      <div>
        <ButtonLink to={routes.dashboard} variant="ghost" className={styles.back}>
          <ArrowLeft aria-hidden="true" />
          Back to Dashboard
        </ButtonLink>
      </div>
      {entries === undefined ? (
        <Spinner />
      ) : entries.length === 0 ? (
        <p>No entries yet.</p>
      ) : (
        <EntryList entries={entries} parkedReasons={parkedReasons} />
      )}
    </Page>
  );
}
