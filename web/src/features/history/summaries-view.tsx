import { lazy, Suspense, useMemo, useState } from 'react';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { formatPence, formatShortDate } from '@/lib/format';
import type { LocalDeduction, LocalEntry } from '@/sync/types';
import type { DayRange } from './history-range';
import { monthlySummaries, weeklySeries, weeklySummaries, type ClosedRange, type PeriodTotals } from './summaries';
import panel from '@/components/panel.module.css';
import styles from './history-page.module.css';

const WeeklyChart = lazy(() => import('./weekly-chart'));

/** Weeks shown before "Show all weeks": a quarter, enough to see a trend without a long page. */
const RECENT_WEEKS = 13;

const count = new Intl.NumberFormat('en-GB');

interface SummariesViewProps {
  /** Live entries in the range. */
  entries: readonly LocalEntry[];
  /** The range as chosen (ends may be open), for the chart's weeks. */
  range: DayRange;
  /** The range with open ends closed at the first and last day with entries: deductions count inside it. */
  closed: ClosedRange;
  deductions: readonly LocalDeduction[];
}

/** Weekly and monthly pay (gross, deductions, net, £/hour gross and net, £/stop) and a chart of stops and earnings per week. */
export function SummariesView({ entries, range, closed, deductions }: SummariesViewProps) {
  const weeks = useMemo(() => weeklySummaries(entries, deductions, closed), [entries, deductions, closed]);
  const months = useMemo(() => monthlySummaries(entries, deductions, closed), [entries, deductions, closed]);
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
        <SummaryTable caption="Week" rows={shownWeeks.map((week) => ({ key: week.key, prefix: 'Week of', label: formatShortDate(week.start), totals: week }))} />
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

interface SummaryRow {
  key: string;
  /** Words before the label that a phone leaves unshown (screen readers still read them). */
  prefix?: string;
  label: string;
  totals: PeriodTotals;
}

/** One row per period; on a phone it scrolls sideways inside its card, the period kept in view. */
function SummaryTable({ caption, rows }: { caption: string; rows: SummaryRow[] }) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">{caption}</th>
            <th scope="col">Days</th>
            <th scope="col">Stops</th>
            <th scope="col">Gross</th>
            <th scope="col">Deductions</th>
            <th scope="col">Net</th>
            <th scope="col">£/hour</th>
            <th scope="col">£/stop</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ key, prefix, label, totals }) => (
            <tr key={key}>
              <th scope="row">
                {prefix ? <span className={styles.prefix}>{prefix}</span> : null} {label}
              </th>
              <td>{totals.daysWorked}</td>
              <td>{count.format(totals.stops)}</td>
              <td>{formatPence(totals.gross)}</td>
              <td>{totals.deductions === 0 ? '–' : formatPence(-totals.deductions)}</td>
              <td className={styles.net}>{formatPence(totals.net)}</td>
              <td>
                {totals.perHour === null ? (
                  '–'
                ) : (
                  <>
                    {formatPence(totals.perHour)}
                    {/* Net of the period's deductions, under the gross: one column keeps the table on a laptop's width. */}
                    {totals.netPerHour === null ? null : <span className={styles.netRate}>{formatPence(totals.netPerHour)} net</span>}
                  </>
                )}
              </td>
              <td>{totals.perStop === null ? '–' : formatPence(totals.perStop)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
