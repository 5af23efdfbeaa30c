import { useId } from 'react';
import { countWords, formatMinutes, formatPence, formatShortDate, formatCount } from '@/lib/format';
import type { CourierPay, PaySummary } from '@/core/pay-summaries/pay-summary';
import styles from './pay-summary.module.css';
import panel from './panel.module.css';


/** A courier as the breakdown names it (a LocalCourier fits). */
export interface NamedCourier {
  id: string;
  name: string;
  colour: string;
}

interface PaySummaryPanelProps {
  title: string;
  /** Null while the days and deductions are read. */
  summary: PaySummary | null;
  from: string;
  to: string;
  couriers: readonly NamedCourier[];
}

/**
 * Gross, deductions and net for a period, with £ per hour (gross and net) and £ per stop (or per
 * parcel), and each courier's
 * share when more than one courier was worked for or charged in it.
 */
export function PaySummaryPanel({ title, summary, from, to, couriers }: PaySummaryPanelProps) {
  const headingId = useId();
  return (
    <section className={panel.panel} aria-labelledby={headingId}>
      <div className={panel.panelHead}>
        <h2 id={headingId} className={panel.panelTitle}>
          {title}
        </h2>
        <span className={panel.muted}>
          {formatShortDate(from)} – {formatShortDate(to)}
        </span>
      </div>
      {summary ? (
        <>
          <Figures label={title} figures={summary} />
          {summary.byCourier.length > 1 ? <ByCourier rows={summary.byCourier} couriers={couriers} /> : null}
        </>
      ) : null}
    </section>
  );
}

function Figures({ label, figures }: { label: string; figures: PaySummary }) {
  const tiles: { label: string; value: string; hint: string; tone?: 'net' | 'minus' }[] = [
    { label: 'Gross', value: formatPence(figures.gross), hint: `${figures.daysWorked} ${figures.daysWorked === 1 ? 'day' : 'days'} worked` },
    { label: 'Deductions', value: formatPence(-figures.deductions), hint: 'charged in the period', tone: 'minus' },
    { label: 'Net', value: formatPence(figures.net), hint: 'gross − deductions', tone: 'net' },
  ];
  if (figures.perHour !== null) {
    // The days it counts: only days with a start and a finish time have hours.
    const days = figures.timedDays === figures.daysWorked ? countWords(figures.timedDays, 'day') : `${figures.timedDays} of ${countWords(figures.daysWorked, 'day')}`;
    tiles.push({ label: '£ per hour', value: formatPence(figures.perHour), hint: `gross over ${formatMinutes(figures.minutesWorked)} on ${days} timed` });
    if (figures.netPerHour !== null) {
      const net = figures.deductions === 0 ? 'no deductions' : figures.timedDays === figures.daysWorked ? `after ${formatPence(figures.deductions)} of deductions` : 'after those days’ share of deductions';
      tiles.push({ label: '£ per hour net', value: formatPence(figures.netPerHour), hint: net, tone: 'net' });
    }
  }
  if (figures.perStop !== null) tiles.push({ label: '£ per stop', value: formatPence(figures.perStop), hint: `gross over ${formatCount(figures.stops)} stops` });
  if (figures.perParcel !== null) tiles.push({ label: '£ per parcel', value: formatPence(figures.perParcel), hint: `days without stops: ${formatCount(figures.parcels)} parcels` });
  return (
    <ul className={styles.tiles} aria-label={label}>
      {tiles.map((tile) => (
        <li key={tile.label} className={styles.tile} data-tone={tile.tone}>
          <span className={styles.tileLabel}>{tile.label}</span>
          <span className={styles.tileValue}>{tile.value}</span>
          <span className={styles.tileHint}>{tile.hint}</span>
        </li>
      ))}
    </ul>
  );
}

function ByCourier({ rows, couriers }: { rows: CourierPay[]; couriers: readonly NamedCourier[] }) {
  const headingId = useId();
  return (
    <div className={styles.byCourier}>
      <h3 id={headingId} className={styles.byCourierTitle}>
        By courier
      </h3>
      <ul className={styles.couriers} aria-labelledby={headingId}>
        {rows.map((row) => {
          const courier = couriers.find((c) => c.id === row.courierId);
          const name = courier?.name ?? 'Deleted courier';
          const rates = [
            row.perHour === null ? null : `${formatPence(row.perHour)}/hour (${formatPence(row.netPerHour ?? 0)} net)`,
            row.perStop === null ? null : `${formatPence(row.perStop)}/stop`,
            row.perParcel === null ? null : `${formatPence(row.perParcel)}/parcel`,
          ].filter(Boolean);
          return (
            <li key={row.courierId} className={styles.courier} aria-label={name}>
              <span className={styles.courierName}>
                <span className={styles.dot} style={{ background: courier?.colour ?? 'transparent' }} aria-hidden="true" />
                {name}
              </span>
              <span className={styles.courierNet}>{formatPence(row.net)} net</span>
              <span className={styles.courierDetail}>
                {formatPence(row.gross)} gross − {formatPence(row.deductions)} deductions
                {rates.length > 0 ? ` · ${rates.join(' · ')}` : ''}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
