import { Link } from 'react-router';
import { routes } from '@/lib/paths';
import styles from './terms-banner.module.css';

/** Shown to signed-out visitors on the public pages. */
export function TermsBanner() {
  return (
    <aside className={styles.banner} aria-label="Terms notice">
      <p>
        By using Delivery Tracker you agree to our <Link to={routes.terms}>Terms of Service</Link>.
      </p>
    </aside>
  );
}
