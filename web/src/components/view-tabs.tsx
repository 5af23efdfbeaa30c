import { Link } from 'react-router';
import styles from './view-tabs.module.css';

export interface ViewTab<V extends string> {
  id: V;
  label: string;
  /** Where the tab goes (the screen with ?view=...). */
  to: string;
}

/**
 * A screen's views as links, the current one marked: each view has its own URL, so a reload or
 * a shared link opens the same view, and switching replaces the history entry.
 */
export function ViewTabs<V extends string>({ label, tabs, current }: { label: string; tabs: readonly ViewTab<V>[]; current: V }) {
  return (
    <nav className={styles.tabs} aria-label={label}>
      {tabs.map(({ id, label: text, to }) => (
        <Link key={id} className={styles.tab} to={to} aria-current={current === id ? 'page' : undefined} replace>
          {text}
        </Link>
      ))}
    </nav>
  );
}
