import { Sun, Sunrise, Sunset } from 'lucide-react';
import { greetingFor, driverName, type Greeting } from './greeting';
import { useScrolledPast } from './use-scrolled-past';
import styles from './dashboard.module.css';

/** Spec §9: the greeting card hides once the page is scrolled more than 100px. */
export const GREETING_HIDE_SCROLL_PX = 100;

const icons = { 'Good morning': Sunrise, 'Good afternoon': Sun, 'Good evening': Sunset } satisfies Record<Greeting, unknown>;

const longDate = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long' });

/**
 * `isNew` is true for a user with no entries yet (the spec's new-user flag), null while the
 * entries are still being read. The card keeps its space when hidden: collapsing it would
 * shift the page under the scroll position that hid it, and it would bounce back.
 */
export function GreetingCard({ displayName, now, isNew }: { displayName: string | null | undefined; now: Date; isNew: boolean | null }) {
  const hidden = useScrolledPast(GREETING_HIDE_SCROLL_PX);
  const greeting = greetingFor(now);
  const Icon = icons[greeting];
  return (
    <section
      className={styles.greeting}
      aria-label="Greeting"
      aria-hidden={hidden || undefined}
      style={hidden ? { visibility: 'hidden', opacity: 0 } : undefined}
      data-testid="greeting-card"
    >
      <Icon aria-hidden="true" className={styles.greetingIcon} />
      <div>
        <h2 className={styles.greetingTitle}>
          {greeting}, {driverName(displayName)}!
        </h2>
        <p className={styles.greetingText}>
          {isNew
            ? 'Welcome to Delivery Tracker! Log your first day above and your stops and earnings will add up here.'
            : longDate.format(now)}
        </p>
      </div>
    </section>
  );
}
