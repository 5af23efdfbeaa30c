import { useId } from 'react';
import { formatShortDate } from '@/lib/format';
import styles from './weekly-stats.module.css';
import panel from './panel.module.css';

const shortDay = new Intl.DateTimeFormat('en-GB', { weekday: 'short' });
const longDay = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long' });
const count = new Intl.NumberFormat('en-GB');

function localDate(day: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

/** Stops per day, Sunday to Saturday (the dashboard's figures, or a sample on the landing page). */
export interface WeekFigures {
  days: readonly { date: string; stops: number }[];
}

/** This week, Sunday to Saturday: stops per day as bars, each with its number. */
export function WeeklyStats({ stats, today }: { stats: WeekFigures | null; today: string }) {
  const headingId = useId();
  if (!stats) return null;
  const { days } = stats;
  const most = Math.max(1, ...days.map((day) => day.stops));
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
          return (
            <li key={day.date} className={styles.day} data-today={isToday || undefined}>
              <span className="visually-hidden">
                {longDay.format(date)}
                {isToday ? ' (today)' : ''}: {count.format(day.stops)} stops
              </span>
              <span aria-hidden="true" className={styles.dayStops}>
                {day.stops > 0 ? count.format(day.stops) : '–'}
              </span>
              <span aria-hidden="true" className={styles.barTrack}>
                <span className={styles.bar} style={{ height: `${(day.stops / most) * 100}%` }} />
              </span>
              <span aria-hidden="true" className={styles.dayName}>
                {shortDay.format(date)}
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
