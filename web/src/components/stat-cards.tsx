import { Clock, PoundSterling, TrendingUp, Trophy, type LucideIcon } from 'lucide-react';
import { formatPence, formatCount } from '@/lib/format';
import styles from './stat-cards.module.css';


/** What the cards show; the dashboard computes it from the entries on the device. */
export interface StatFigures {
  weekStops: number;
  /** Stops over the days with stops. */
  dailyAverage: number;
  /** Pence: this week's totals. */
  weekEarnings: number;
  /** Pence charged by deductions this week: Earnings shows what is left (net). */
  weekDeductions?: number;
  allTimeStops: number;
  /** Days paid per parcel add their parcels beside the stops (absent on the landing page's sample). */
  weekParcels?: number;
  stopDays?: number;
  dailyParcels?: number;
  parcelDays?: number;
  allTimeParcels?: number;
}

interface Stat {
  label: string;
  value: string;
  hint: string;
  /** A second count beside the first: parcels beside stops. */
  also?: string | undefined;
  Icon: LucideIcon;
}

const days = (n: number) => `${formatCount(n)} ${n === 1 ? 'day' : 'days'}`;

/**
 * Stops first, with the spec's words, and parcels beside them where days are paid per parcel;
 * parcels alone where no day had stops.
 */
function counted(stops: number, parcels: number, stopsHint: string, parcelsHint: string, also: (parcels: number) => string): Pick<Stat, 'value' | 'hint' | 'also'> {
  if (stops === 0 && parcels > 0) return { value: formatCount(parcels), hint: parcelsHint };
  return { value: formatCount(stops), hint: stopsHint, also: parcels > 0 ? also(parcels) : undefined };
}

/** The four stat cards (PRODUCT.md). `stats` null while the entries are still being read. */
export function StatCards({ stats }: { stats: StatFigures | null }) {
  const parcels = stats?.weekParcels ?? 0;
  const cards: Stat[] = stats
    ? [
        { label: 'This week', ...counted(stats.weekStops, parcels, 'stops since Sunday', 'parcels since Sunday', (n) => `and ${formatCount(n)} parcels`), Icon: TrendingUp },
        {
          label: 'Daily average',
          ...counted(
            stats.dailyAverage,
            stats.dailyParcels ?? 0,
            stats.parcelDays ? `stops a day (${days(stats.stopDays ?? 0)})` : 'stops per day',
            `parcels a day (${days(stats.parcelDays ?? 0)})`,
            (n) => `and ${formatCount(n)} parcels a day (${days(stats.parcelDays ?? 0)})`,
          ),
          Icon: Clock,
        },
        {
          label: 'Earnings',
          value: formatPence(stats.weekEarnings - (stats.weekDeductions ?? 0)),
          hint: stats.weekDeductions ? 'net this week' : 'this week',
          Icon: PoundSterling,
        },
        { label: 'All-time stops', ...counted(stats.allTimeStops, stats.allTimeParcels ?? 0, 'stops logged', 'parcels logged', (n) => `and ${formatCount(n)} parcels`), Icon: Trophy },
      ]
    : [
        { label: 'This week', value: '–', hint: 'stops since Sunday', Icon: TrendingUp },
        { label: 'Daily average', value: '–', hint: 'stops per day', Icon: Clock },
        { label: 'Earnings', value: '–', hint: 'this week', Icon: PoundSterling },
        { label: 'All-time stops', value: '–', hint: 'stops logged', Icon: Trophy },
      ];
  return (
    <ul className={styles.stats} aria-label="Your stats">
      {cards.map(({ label, value, hint, also, Icon }) => (
        <li key={label} className={styles.stat}>
          <span className={styles.statHead}>
            <Icon aria-hidden="true" />
            {label}
          </span>
          <span className={styles.statValue}>{value}</span>
          <span className={styles.statHint}>{hint}</span>
          {also ? <span className={styles.statAlso}>{also}</span> : null}
        </li>
      ))}
    </ul>
  );
}
