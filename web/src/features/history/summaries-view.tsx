import { lazy, Suspense, useMemo, useState } from 'react';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { formatPence, formatShortDate, formatCount } from '@/lib/format';
import type { LocalDeduction, LocalEntry } from '@/sync/types';
import type { DayRange } from './history-range';
import { monthlySummaries, weeklySeries, weeklySummaries, type ClosedRange, type PeriodTotals } from '@/core/pay-summaries/summaries';
import panel from '@/components/panel.module.css';
import styles from './history-page.module.css';

const WeeklyChart = lazy(() => import('./weekly-chart'));

/** Weeks shown before "Show all weeks": a quarter, enough to see a trend without a long page. */
const RECENT_WEEKS = 13;


interface SummariesViewProps {
  /** Live entries in the range. */
  entries: readonly LocalEntry[];
  /** The range as chosen (ends may be open), for the chart's weeks. */
  range: DayRange;
  /** The range with open ends closed at the first and last day with entries: deductions count inside it. */
  closed: ClosedRange;
  deductions: readonly LocalDeduction[];
}

/** Weekly and monthly pay (gross, deductions, net, £/hour gross and net, £/stop or £/parcel) and a chart of stops and earnings per week. */
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
            {allWeeks ? 'Show recent weeks' : `Show all weeks (${formatCount(weeks.length)})`}
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

/** A period's £/hour (gross, with net under it) and £/stop (with £ a parcel under it), shared by both layouts. */
function PerHour({ totals }: { totals: PeriodTotals }) {
  if (totals.perHour === null) return <>–</>;
  return (
    <>
      {formatPence(totals.perHour)}
      {/* Net of the period's deductions, under the gross: one column keeps the table on a laptop's width. */}
      {totals.netPerHour === null ? null : <span className={styles.netRate}>{formatPence(totals.netPerHour)} net</span>}
    </>
  );
}

function PerStop({ totals }: { totals: PeriodTotals }) {
  return (
    <>
      {totals.perStop === null ? '–' : formatPence(totals.perStop)}
      {totals.perParcel === null ? null : <span className={styles.parcels}>{formatPence(totals.perParcel)} a parcel</span>}
    </>
  );
}

function Stops({ totals }: { totals: PeriodTotals }) {
  return (
    <>
      {formatCount(totals.stops)}
      {totals.parcels > 0 ? <span className={styles.parcels}>{formatCount(totals.parcels)} parcels</span> : null}
    </>
  );
}

const deductionsText = (totals: PeriodTotals) => (totals.deductions === 0 ? '–' : formatPence(-totals.deductions));

/**
 * One row per period on a wide screen; on a phone one card per period, Net first beside the
 * period, so nothing needs sideways scrolling (CSS shows one layout; the other is display:none,
 * out of the accessibility tree). A period with days paid without stops shows their parcels
 * under its stops, and their £ per parcel under its £ per stop (which never counts them).
 */
function SummaryTable({ caption, rows }: { caption: string; rows: SummaryRow[] }) {
  return (
    <>
      {/* Focusable: on a narrow laptop window the table may still scroll, and keys must reach it. */}
      <div className={styles.tableWrap} role="region" aria-label={`${caption} by ${caption.toLowerCase()}, table`} tabIndex={0}>
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
                <td>
                  <Stops totals={totals} />
                </td>
                <td>{formatPence(totals.gross)}</td>
                <td>{deductionsText(totals)}</td>
                <td className={styles.net}>{formatPence(totals.net)}</td>
                <td>
                  <PerHour totals={totals} />
                </td>
                <td>
                  <PerStop totals={totals} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className={styles.periodCards} aria-label={`${caption} by ${caption.toLowerCase()}`}>
        {rows.map(({ key, prefix, label, totals }) => (
          <li key={key} className={styles.periodCard}>
            <div className={styles.periodHead}>
              <h3 className={styles.periodLabel}>{prefix ? `${prefix} ${label}` : label}</h3>
              <p className={styles.periodNet}>
                <span className={styles.periodNetWord}>Net</span> {formatPence(totals.net)}
              </p>
            </div>
            <dl className={styles.periodFigures}>
              <div>
                <dt>Days</dt>
                <dd>{totals.daysWorked}</dd>
              </div>
              <div>
                <dt>Stops</dt>
                <dd>
                  <Stops totals={totals} />
                </dd>
              </div>
              <div>
                <dt>Gross</dt>
                <dd>{formatPence(totals.gross)}</dd>
              </div>
              <div>
                <dt>Deductions</dt>
                <dd>{deductionsText(totals)}</dd>
              </div>
              <div>
                <dt>£/hour</dt>
                <dd>
                  <PerHour totals={totals} />
                </dd>
              </div>
              <div>
                <dt>£/stop</dt>
                <dd>
                  <PerStop totals={totals} />
                </dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}
