import { Clock, PoundSterling, TrendingUp, Trophy, type LucideIcon } from 'lucide-react';
import { formatPence } from '@/lib/format';
import styles from './stat-cards.module.css';

const count = new Intl.NumberFormat('en-GB');

/** What the cards show; the dashboard computes it from the entries on the device. */
export interface StatFigures {
  weekStops: number;
  dailyAverage: number;
  /** Pence: this week's totals. */
  weekEarnings: number;
  /** Pence charged by deductions this week: Earnings shows what is left (net). */
  weekDeductions?: number;
  allTimeStops: number;
}

interface Stat {
  label: string;
  value: string;
  hint: string;
  Icon: LucideIcon;
}

/** The four stat cards (PRODUCT.md). `stats` null while the entries are still being read. */
export function StatCards({ stats }: { stats: StatFigures | null }) {
  const show = (value: (s: StatFigures) => string) => (stats ? value(stats) : '–');
  const cards: Stat[] = [
    { label: 'This week', value: show((s) => count.format(s.weekStops)), hint: 'stops since Sunday', Icon: TrendingUp },
    { label: 'Daily average', value: show((s) => count.format(s.dailyAverage)), hint: 'stops per entry', Icon: Clock },
    {
      label: 'Earnings',
      value: show((s) => formatPence(s.weekEarnings - (s.weekDeductions ?? 0))),
      hint: stats?.weekDeductions ? 'net this week' : 'this week',
      Icon: PoundSterling,
    },
    { label: 'All-time stops', value: show((s) => count.format(s.allTimeStops)), hint: 'stops logged', Icon: Trophy },
  ];
  return (
    <ul className={styles.stats} aria-label="Your stats">
      {cards.map(({ label, value, hint, Icon }) => (
        <li key={label} className={styles.stat}>
          <span className={styles.statHead}>
            <Icon aria-hidden="true" />
            {label}
          </span>
          <span className={styles.statValue}>{value}</span>
          <span className={styles.statHint}>{hint}</span>
        </li>
      ))}
    </ul>
  );
}
