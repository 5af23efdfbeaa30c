import { lazy, Suspense, useMemo, useState } from 'react';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { formatPence } from '@/lib/format';
import type { LocalEntry } from '@/sync/types';
import type { DayRange } from './history-range';
import { monthlySummaries, weeklySeries, weeklySummaries, type PeriodTotals } from './summaries';
import panel from '@/components/panel.module.css';
import styles from './history-page.module.css';

const WeeklyChart = lazy(() => import('./weekly-chart'));

/** Weeks shown before "Show all weeks": a quarter, enough to see a trend without a long page. */
const RECENT_WEEKS = 13;

const count = new Intl.NumberFormat('en-GB');

/** Weekly and monthly totals of the entries in the range, with a chart of stops and earnings per week. */
export function SummariesView({ entries, range }: { entries: readonly LocalEntry[]; range: DayRange }) {
  const weeks = useMemo(() => weeklySummaries(entries), [entries]);
  const months = useMemo(() => monthlySummaries(entries), [entries]);
  const series = useMemo(() => weeklySeries(entries, range.from || undefined, range.to || undefined), [entries, range.from, range.to]);
  const [allWeeks, setAllWeeks] = useState(false);

  if (entries.length === 0) return <p className={styles.empty}>No entries in this period.</p>;
  const shownWeeks = allWeeks ? weeks : weeks.slice(0, RECENT_WEEKS);
  return (
    <>
      <section className={panel.panel} aria-labelledby="chart-title">
        <h2 id="chart-title" className={panel.panelTitle}>
          Stops and earnings per week
        </h2>
        <figure className={styles.figure} aria-label={`Chart of stops and earnings for ${series.length} weeks; the tables below have the same figures`}>
          <Suspense fallback={<Spinner />}>
            <WeeklyChart points={series} />
          </Suspense>
        </figure>
      </section>
      <section className={panel.panel} aria-labelledby="weekly-title">
        <h2 id="weekly-title" className={panel.panelTitle}>
          Weekly summary
        </h2>
        <SummaryTable caption="Week" rows={shownWeeks.map((week) => ({ key: week.key, label: week.label, totals: week }))} />
        {weeks.length > RECENT_WEEKS ? (
          <Button variant="ghost" onClick={() => setAllWeeks((shown) => !shown)}>
            {allWeeks ? 'Show recent weeks' : `Show all weeks (${count.format(weeks.length)})`}
          </Button>
        ) : null}
      </section>
      <section className={panel.panel} aria-labelledby="monthly-title">
        <h2 id="monthly-title" className={panel.panelTitle}>
          Monthly summary
        </h2>
        <SummaryTable caption="Month" rows={months.map((month) => ({ key: month.key, label: month.label, totals: month }))} />
      </section>
    </>
  );
}

function SummaryTable({ caption, rows }: { caption: string; rows: { key: string; label: string; totals: PeriodTotals }[] }) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">{caption}</th>
            <th scope="col">Days</th>
            <th scope="col">Stops</th>
            <th scope="col">Earnings</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ key, label, totals }) => (
            <tr key={key}>
              <th scope="row">{label}</th>
              <td>{totals.daysWorked}</td>
              <td>{count.format(totals.stops)}</td>
              <td>{formatPence(totals.earnings)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
