import { ArrowLeft } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ButtonLink } from '@/components/button';
import { Page } from '@/components/page';
import { Spinner } from '@/components/spinner';
import { UndoToast } from '@/components/undo-toast';
import { formatShortDate } from '@/lib/format';
import { historyView, routes, type HistoryView } from '@/lib/paths';
import { parkedReasonsByRecord, useEntries, useParkedChanges } from '@/lib/sync/use-entries';
import { useInvoices } from '@/lib/sync/use-invoices';
import { usePayTiers, useProfile, useSettings } from '@/lib/sync/use-profile';
import { useSyncHandle } from '@/lib/sync/use-sync';
import { useNow } from '@/lib/use-now';
import { addDays, localDay, weekStart } from '@/lib/week';
import { deleteRecord, undoDelete } from '@/sync/commands';
import type { RecordKind } from '@/sync/records';
import type { LocalEntry, LocalInvoice } from '@/sync/types';
import { EntriesView } from './entries-view';
import { ExportButtons } from './export-buttons';
import { inRange, rangeFromParams, rangeProblem, type DayRange } from './history-range';
import { InvoicesView } from './invoices-view';
import { RangeFilter } from './range-filter';
import { SummariesView } from './summaries-view';
import panel from '@/components/panel.module.css';
import styles from './history-page.module.css';

const VIEWS: { id: HistoryView; label: string }[] = [
  { id: 'entries', label: 'Entries' },
  { id: 'summaries', label: 'Summaries' },
  { id: 'invoices', label: 'Invoice checks' },
];

function viewOf(params: URLSearchParams): HistoryView {
  const view = params.get('view');
  return view === 'summaries' || view === 'invoices' ? view : 'entries';
}

type Deleted = { kind: 'entry'; record: LocalEntry } | { kind: 'invoice'; record: LocalInvoice };

/**
 * Every entry, newest first, searchable by date range, with edit and delete (and Undo); weekly
 * and monthly summaries with a chart; exports; and invoice checks. All from the device, so the
 * whole screen works offline.
 */
export function HistoryPage() {
  const handle = useSyncHandle();
  const [params, setParams] = useSearchParams();
  const view = viewOf(params);
  const range = rangeFromParams(params);
  const today = localDay(useNow());

  const entries = useEntries();
  const invoices = useInvoices();
  const parked = useParkedChanges();
  const tiers = usePayTiers();
  const profile = useProfile();
  const settings = useSettings();
  const parkedReasons = useMemo(() => parkedReasonsByRecord(parked), [parked]);
  const validRange = rangeProblem(range) === null;
  const inRangeEntries = useMemo(
    () => (entries && validRange ? entries.filter((entry) => inRange(entry.date, range)) : []),
    // range.from/range.to are the range; the object is rebuilt on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [entries, validRange, range.from, range.to],
  );

  const [deleted, setDeleted] = useState<Deleted | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  function setRange(next: DayRange) {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        for (const key of ['from', 'to'] as const) {
          if (next[key]) updated.set(key, next[key]);
          else updated.delete(key);
        }
        return updated;
      },
      { replace: true },
    );
  }

  async function remove(kind: RecordKind, record: LocalEntry | LocalInvoice) {
    await deleteRecord(handle.db, kind, record.id);
    handle.requestSync();
    setDeleted({ kind, record } as Deleted);
    setNotice(null);
  }

  async function undo() {
    if (!deleted) return;
    setDeleted(null);
    if (deleted.kind === 'entry') await undoDelete(handle.db, 'entry', deleted.record);
    else await undoDelete(handle.db, 'invoice', deleted.record);
    handle.requestSync();
    setNotice(deleted.kind === 'entry' ? 'Entry restored' : 'Invoice check restored');
  }

  const dismiss = useCallback(() => setDeleted(null), []);

  const total = entries?.length ?? 0;
  return (
    <Page title="All Entries" intro={entries ? `${total} ${total === 1 ? 'entry' : 'entries'}, newest first` : null}>
      <div>
        <ButtonLink to={routes.dashboard} variant="ghost" className={styles.back}>
          <ArrowLeft aria-hidden="true" />
          Back to Dashboard
        </ButtonLink>
      </div>
      <nav className={styles.tabs} aria-label="History views">
        {VIEWS.map(({ id, label }) => (
          <Link
            key={id}
            className={styles.tab}
            to={keepRange(historyView(id), range)}
            aria-current={view === id ? 'page' : undefined}
            replace
          >
            {label}
          </Link>
        ))}
      </nav>
      {entries === undefined || invoices === undefined ? (
        <Spinner />
      ) : view === 'invoices' ? (
        <InvoicesView
          invoices={invoices}
          entries={entries}
          parkedReasons={parkedReasons}
          lastWeekStart={addDays(weekStart(today), -7)}
          onDelete={(check) => void remove('invoice', check)}
        />
      ) : total === 0 ? (
        <p className={styles.empty}>No entries yet.</p>
      ) : (
        <>
          <section className={panel.panel} aria-label="Search and export">
            <RangeFilter range={range} today={today} onChange={setRange} />
            <div className={styles.filterFoot}>
              <p className={styles.hint} role="status">
                {validRange ? matchText(inRangeEntries.length, total) : ''}
              </p>
              <ExportButtons
                range={range}
                today={today}
                entries={inRangeEntries}
                invoices={invoices}
                profile={profile}
                theme={settings?.theme ?? 'dark'}
              />
            </div>
          </section>
          {view === 'summaries' ? (
            <SummariesView entries={inRangeEntries} range={range} />
          ) : (
            <EntriesView
              entries={inRangeEntries}
              parkedReasons={parkedReasons}
              tiers={tiers}
              onDelete={(entry) => void remove('entry', entry)}
              onEdited={() => setNotice('Entry updated')}
            />
          )}
        </>
      )}
      <p className="visually-hidden" role="status">
        {notice ?? ''}
      </p>
      {deleted ? (
        <UndoToast
          message={deleted.kind === 'entry' ? `Entry for ${formatShortDate(deleted.record.date)} deleted` : 'Invoice check deleted'}
          onUndo={() => void undo()}
          onDismiss={dismiss}
        />
      ) : null}
    </Page>
  );
}

function matchText(matching: number, total: number): string {
  if (matching === total) return `Showing all ${total} ${total === 1 ? 'entry' : 'entries'}`;
  return `${matching} of ${total} entries in this period`;
}

/** A view's link keeps the chosen dates, so switching views shows the same period. */
function keepRange(path: string, range: DayRange): string {
  const extra = new URLSearchParams();
  if (range.from) extra.set('from', range.from);
  if (range.to) extra.set('to', range.to);
  const query = extra.toString();
  if (!query) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}
