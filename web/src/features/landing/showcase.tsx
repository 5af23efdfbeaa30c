import { Pause, Play } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { EntryList } from '@/features/entries/entry-list';
import { StatCards } from '@/components/stat-cards';
import { WeeklyStats } from '@/components/weekly-stats';
import { formatPence, formatShortDate, formatCount } from '@/lib/format';
import { DEFAULT_TIERS } from '@/core/pay/pay';
import { useReducedMotion } from '@/lib/use-reduced-motion';
import { SAMPLE_TODAY, sampleAllTime, sampleEntries, sampleStats, sampleWeek } from './showcase-data';
import styles from './showcase.module.css';

/** Spec §9: the showcase moves on every 4 seconds. */
export const SHOWCASE_INTERVAL_MS = 4_000;


interface Slide {
  title: string;
  render: () => ReactNode;
}

// Spec §2, in its order: dashboard, weekly view, invoice (a statement check here: one name for the feature on every screen), recent entries, stats.
const slides: readonly Slide[] = [
  {
    title: 'Dashboard',
    render: () => (
      <div className={styles.stack}>
        <p className={styles.greeting}>Good afternoon, Sam!</p>
        <StatCards stats={sampleStats} />
      </div>
    ),
  },
  { title: 'Weekly view', render: () => <WeeklyStats stats={sampleWeek} today={SAMPLE_TODAY} /> },
  { title: 'Statement check', render: () => <StatementCheckPreview /> },
  { title: 'Recent entries', render: () => <EntryList entries={sampleEntries.slice(0, 3)} /> },
  { title: 'Stats', render: () => <AllTimePreview /> },
];

function StatementCheckPreview() {
  const [first, final] = DEFAULT_TIERS;
  const total = sampleEntries.reduce((sum, entry) => sum + entry.total, 0);
  return (
    <div className={styles.panel}>
      <p className={styles.muted}>
        Week of {formatShortDate(sampleWeek.days[0]?.date ?? SAMPLE_TODAY)} · {formatCount(first?.stopCount ?? 0)} stops at{' '}
        {formatPence(first?.rate ?? 0)}, then {formatPence(final?.rate ?? 0)}
      </p>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Stops</th>
            <th scope="col">Extra</th>
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {[...sampleEntries].reverse().map((entry) => (
            <tr key={entry.id}>
              <td>{formatShortDate(entry.date)}</td>
              <td>{formatCount(entry.stops)}</td>
              <td>{formatPence(entry.extra)}</td>
              <td>{formatPence(entry.total)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              Your log
            </th>
            <td>{formatPence(total)}</td>
          </tr>
          <tr>
            <th scope="row" colSpan={3}>
              Statement: matches
            </th>
            <td>{formatPence(total)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

function AllTimePreview() {
  const figures: [string, string][] = [
    ['Entries logged', formatCount(sampleAllTime.entries)],
    ['All-time stops', formatCount(sampleAllTime.stops)],
    ['All-time earnings', formatPence(sampleAllTime.earnings)],
    ['Best day', `${formatCount(sampleAllTime.bestDay.stops)} stops, ${formatShortDate(sampleAllTime.bestDay.date)}`],
  ];
  return (
    <dl className={styles.figures}>
      {figures.map(([label, value]) => (
        <div key={label} className={styles.figure}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Previews of the app's own screens with sample data, one at a time. It moves on by itself
 * unless the user paused it or asked their system for reduced motion (then Play starts it).
 */
export function Showcase() {
  const reducedMotion = useReducedMotion();
  const [index, setIndex] = useState(0);
  // null: follow the system setting; true/false: the user's own choice.
  const [paused, setPaused] = useState<boolean | null>(null);
  const rotating = paused === null ? !reducedMotion : !paused;

  useEffect(() => {
    if (!rotating) return;
    // Re-armed on every change of slide, so picking one gives it a full 4 seconds.
    const timer = setTimeout(() => setIndex((current) => (current + 1) % slides.length), SHOWCASE_INTERVAL_MS);
    return () => clearTimeout(timer);
  }, [index, rotating]);

  const slide = slides[index] ?? slides[0]!;
  return (
    <section className={styles.showcase} aria-roledescription="carousel" aria-labelledby="showcase-title">
      <div className={styles.head}>
        <h2 id="showcase-title" className={styles.title}>
          See it in action
        </h2>
        <button
          type="button"
          className={styles.toggle}
          onClick={() => setPaused(rotating)}
          aria-label={rotating ? 'Pause showcase' : 'Play showcase'}
        >
          {rotating ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
          <span aria-hidden="true">{rotating ? 'Pause' : 'Play'}</span>
        </button>
      </div>

      <div className={styles.picker} role="group" aria-label="Choose a preview">
        {slides.map((item, i) => (
          <button
            key={item.title}
            type="button"
            className={styles.pick}
            aria-current={i === index ? 'true' : undefined}
            onClick={() => setIndex(i)}
          >
            {item.title}
          </button>
        ))}
      </div>

      {/* Announced only when it changes at the user's request, not every 4 seconds. */}
      <div aria-live={rotating ? 'off' : 'polite'}>
        <div
          key={slide.title}
          role="group"
          aria-roledescription="slide"
          aria-label={`${index + 1} of ${slides.length}: ${slide.title}`}
          className={styles.slide}
        >
          <p className={styles.sample}>Sample data</p>
          {slide.render()}
        </div>
      </div>
    </section>
  );
}
