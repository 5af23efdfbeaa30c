import { ArrowLeft } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ButtonLink } from '@/components/button';
import { Page } from '@/components/page';
import { PaySummaryPanel } from '@/components/pay-summary';
import { Spinner } from '@/components/spinner';
import { UndoToast } from '@/components/undo-toast';
import { ViewTabs } from '@/components/view-tabs';
import { countWords, formatShortDate } from '@/lib/format';
import { historyView, historyViewOf, routes, type HistoryView } from '@/lib/paths';
import { paySummary } from '@/core/pay-summaries/pay-summary';
import { deleteDay, restoreDay } from '@/features/entries/commands';
import { EntriesView } from '@/features/entries/entries-view';
import { LoggedTwice } from '@/features/entries/logged-twice';
import { useEntries } from '@/features/entries/use-entries';
import { deleteCheck, restoreCheck } from '@/features/statement-checks/commands';
import { useStatementChecks } from '@/features/statement-checks/use-statement-checks';
import { EvidenceSection } from '@/features/evidence/evidence-section';
import { parkedReasonsByRecord, useParkedChanges } from '@/features/parked-changes/use-parked-changes';
import { usePaySetup } from '@/lib/sync-react/use-pay-setup';
import { useProfile, useSettings } from '@/lib/sync-react/use-profile';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useNow } from '@/lib/use-now';
import { localDay } from '@/lib/week';
import type { LocalEntry, LocalStatementCheck } from '@/sync/types';
import { ExportButtons } from './export-buttons';
import { ImportPanel } from './import-panel';
import { closedRange, inRange, rangeFromParams, rangeProblem, type DayRange } from './history-range';
import { RangeFilter } from './range-filter';
import { StatementChecksWithQueries } from './statement-checks-with-queries';
import { SummariesView } from './summaries-view';
import panel from '@/components/panel.module.css';
import styles from './history-page.module.css';

const VIEWS: { id: HistoryView; label: string }[] = [
  { id: 'entries', label: 'Entries' },
  { id: 'summaries', label: 'Summaries' },
  { id: 'statements', label: 'Statement checks' },
];

/** Each view's heading names what it shows (the bottom bar has "History" and "Statements"). */
const headings: Record<HistoryView, { title: string; intro: (entries: number) => string }> = {
  entries: { title: 'All Entries', intro: (total) => `${countWords(total, 'entry', 'entries')}, newest first` },
  summaries: { title: 'Summaries', intro: (total) => `Weeks and months of ${countWords(total, 'entry', 'entries')}` },
  statements: { title: 'Statement checks', intro: () => 'What each courier paid against your log, pay period by pay period' },
};

function viewOf(params: URLSearchParams): HistoryView {
  return historyViewOf(params.get('view'));
}

type Deleted = { kind: 'entry'; record: LocalEntry } | { kind: 'invoice'; record: LocalStatementCheck };

/**
 * Every entry, newest first, searchable by date range, with edit and delete (and Undo); weekly
 * and monthly summaries with a chart; exports; and statement checks. All from the device, so the
 * whole screen works offline.
 */
export function HistoryPage() {
  const handle = useSyncHandle();
  const [params, setParams] = useSearchParams();
  const view = viewOf(params);
  const range = rangeFromParams(params);
  // "Open that day" (the entry form's same-day notice) names the day to open in its editor: read
  // once, then dropped from the URL so a reload or Back does not open it again.
  const [openEditor] = useState(() => params.get('edit'));
  useEffect(() => {
    if (!params.has('edit')) return;
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        updated.delete('edit');
        return updated;
      },
      { replace: true },
    );
  }, [params, setParams]);
  const today = localDay(useNow());

  const entries = useEntries();
  const statementChecks = useStatementChecks();
  const parked = useParkedChanges();
  const pay = usePaySetup();
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

  const closed = useMemo(
    () => closedRange(range, inRangeEntries.map((entry) => entry.date), today),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [inRangeEntries, range.from, range.to, today],
  );

  const rangePay = useMemo(
    () => (pay ? paySummary(inRangeEntries, pay.deductions, closed.from, closed.to, pay.couriers.map((c) => c.id)) : null),
    [pay, inRangeEntries, closed],
  );

  const [deleted, setDeleted] = useState<Deleted | null>(null);
  // A deleted day's mileage stays in the log (entries/commands.ts deleteDay): the toast says so.
  const [mileageKept, setMileageKept] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  // Undo belongs to the view it was offered on: switching views (the bottom bar's History and
  // Statements are views of this one screen) ends it, as leaving the screen does.
  const [undoView, setUndoView] = useState(view);
  if (undoView !== view) {
    setUndoView(view);
    setDeleted(null);
  }

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

  async function remove(target: Deleted) {
    if (target.kind === 'entry') {
      const { mileageKept } = await deleteDay(handle, target.record.id);
      setMileageKept(mileageKept > 0);
    } else await deleteCheck(handle, target.record.id);
    setDeleted(target);
    setNotice(null);
  }

  async function undo() {
    if (!deleted) return;
    setDeleted(null);
    if (deleted.kind === 'entry') await restoreDay(handle, deleted.record);
    else await restoreCheck(handle, deleted.record);
    setNotice(deleted.kind === 'entry' ? 'Entry restored' : 'Statement check restored');
  }

  const dismiss = useCallback(() => setDeleted(null), []);

  const total = entries?.length ?? 0;
  const heading = headings[view];
  return (
    <Page title={heading.title} intro={entries ? heading.intro(total) : null}>
      <div>
        <ButtonLink to={routes.dashboard} variant="ghost" className={styles.back}>
          <ArrowLeft aria-hidden="true" />
          Back to Dashboard
        </ButtonLink>
      </div>
      <ViewTabs label="History views" current={view} tabs={VIEWS.map(({ id, label }) => ({ id, label, to: keepRange(historyView(id), range) }))} />
      {entries === undefined || statementChecks === undefined || pay === undefined ? (
        <Spinner />
      ) : view === 'statements' ? (
        <StatementChecksWithQueries
          pay={pay}
          checks={statementChecks}
          entries={entries}
          parkedReasons={parkedReasons}
          today={today}
          onDelete={(check) => void remove({ kind: 'invoice', record: check })}
        />
      ) : total === 0 ? (
        <>
          <p className={styles.empty}>No entries yet.</p>
          <ImportPanel />
        </>
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
                statementChecks={statementChecks}
                profile={profile}
                pay={pay}
                settings={{ theme: settings?.theme ?? 'dark', taxRegion: settings?.taxRegion ?? 'uk' }}
              />
            </div>
          </section>
          <ImportPanel />
          <LoggedTwice entries={entries} pay={pay} />
          {validRange ? <PaySummaryPanel title="Pay in this period" summary={rangePay} from={closed.from} to={closed.to} couriers={pay?.couriers ?? []} /> : null}
          {view === 'summaries' ? (
            <SummariesView
              entries={inRangeEntries}
              range={range}
              closed={closed}
              deductions={pay?.deductions ?? []}
            />
          ) : (
            <EntriesView
              entries={inRangeEntries}
              parkedReasons={parkedReasons}
              pay={pay}
              onDelete={(entry) => void remove({ kind: 'entry', record: entry })}
              onEdited={() => setNotice('Entry updated')}
              initialEditing={openEditor}
              besideEditor={(entry) => <EvidenceSection holder={{ entryId: entry.id }} about={`the day ${formatShortDate(entry.date)}`} />}
            />
          )}
        </>
      )}
      <p className="visually-hidden" role="status">
        {notice ?? ''}
      </p>
      {deleted ? (
        <UndoToast
          message={
            deleted.kind === 'entry'
              ? `Entry for ${formatShortDate(deleted.record.date)} deleted${mileageKept ? '. Its mileage stays in the mileage log' : ''}`
              : 'Statement check deleted'
          }
          onUndo={() => void undo()}
          onDismiss={dismiss}
        />
      ) : null}
    </Page>
  );
}

function matchText(matching: number, total: number): string {
  if (matching === total) return `Showing all ${countWords(total, 'entry', 'entries')}`;
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
