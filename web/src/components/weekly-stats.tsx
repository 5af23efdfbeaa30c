import { useId } from 'react';
import { formatShortDate, formatCount } from '@/lib/format';
import styles from './weekly-stats.module.css';
import panel from './panel.module.css';

const shortDay = new Intl.DateTimeFormat('en-GB', { weekday: 'short' });
const longDay = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long' });

function localDate(day: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

/** One day of the week: its stops, its parcels paid per parcel, and how many entries (0: not worked). */
export interface WeekDay {
  date: string;
  stops: number;
  parcels?: number;
  entries?: number;
}

/** Sunday to Saturday (the dashboard's figures, or a sample on the landing page). */
export interface WeekFigures {
  days: readonly WeekDay[];
}

/** What a day did, in words, for screen readers. */
function dayWords(day: WeekDay): string {
  const parcels = day.parcels ?? 0;
  const parts = [day.stops > 0 || parcels === 0 ? `${formatCount(day.stops)} stops` : null, parcels > 0 ? `${formatCount(parcels)} parcels` : null].filter(Boolean);
  const words = parts.join(' and ');
  return day.stops === 0 && parcels === 0 && (day.entries ?? 0) > 0 ? 'worked, no stops or parcels counted' : words;
}

/**
 * This week, Sunday to Saturday: stops per day as bars, each with its number. Days paid per
 * parcel get a parcels bar of their own beside the stops (on its own scale: a parcel is not a
 * stop), so every day worked shows; a day worked with neither (a day rate) shows a tick.
 */
export function WeeklyStats({ stats, today }: { stats: WeekFigures | null; today: string }) {
  const headingId = useId();
  if (!stats) return null;
  const { days } = stats;
  const mostStops = Math.max(1, ...days.map((day) => day.stops));
  const mostParcels = Math.max(1, ...days.map((day) => day.parcels ?? 0));
  const withParcels = days.some((day) => (day.parcels ?? 0) > 0);
  const first = days[0]?.date ?? today;
  const last = days.at(-1)?.date ?? today;
  return (
    <section className={panel.panel} aria-labelledby={headingId}>
      <div className={panel.panelHead}>
        <h2 id={headingId} className={panel.panelTitle}>
          Weekly Stats
        </h2>
        <span className={panel.muted}>
          {formatShortDate(first)} – {formatShortDate(last)}
        </span>
      </div>
      <ol className={styles.week}>
        {days.map((day) => {
          const isToday = day.date === today;
          const date = localDate(day.date);
          const parcels = day.parcels ?? 0;
          const worked = (day.entries ?? 0) > 0 || day.stops > 0 || parcels > 0;
          return (
            <li key={day.date} className={styles.day} data-today={isToday || undefined}>
              <span className="visually-hidden">
                {longDay.format(date)}
                {isToday ? ' (today)' : ''}: {dayWords(day)}
              </span>
              <span aria-hidden="true" className={styles.dayStops}>
                {day.stops > 0 ? formatCount(day.stops) : parcels > 0 ? '' : worked ? '✓' : '–'}
              </span>
              {withParcels ? (
                <span aria-hidden="true" className={styles.dayParcels}>
                  {parcels > 0 ? formatCount(parcels) : ' '}
                </span>
              ) : null}
              <span aria-hidden="true" className={styles.barTrack}>
                <span className={styles.bar} style={{ height: `${(day.stops / mostStops) * 100}%` }} />
                {withParcels ? <span className={styles.parcelBar} style={{ height: `${(parcels / mostParcels) * 100}%` }} /> : null}
              </span>
              <span aria-hidden="true" className={styles.dayName}>
                {shortDay.format(date)}
              </span>
            </li>
          );
        })}
      </ol>
      {withParcels ? (
        <p className={styles.legend}>
          <span className={styles.legendItem}>
            <span className={styles.key} data-kind="stops" aria-hidden="true" />
            Stops
          </span>
          <span className={styles.legendItem}>
            <span className={styles.key} data-kind="parcels" aria-hidden="true" />
            Parcels (days paid per parcel)
          </span>
        </p>
      ) : null}
    </section>
  );
}
