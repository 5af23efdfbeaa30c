import { Crown } from 'lucide-react';
import { Link } from 'react-router';
import { formatPence } from '@/lib/format';
import { routes } from '@/lib/paths';
import { PRO_PRICE_PENCE } from '@/lib/plans';
import styles from './pro-banner.module.css';

/**
 * The free plan's "ad": a house banner for Pro, in its own slot under the header. No
 * third-party code or assets, so it works offline and tracks nobody.
 */
export function ProBanner() {
  return (
    <aside className={styles.banner} aria-label="Pro plan">
      <div className={styles.inner}>
        <Crown aria-hidden="true" className={styles.icon} />
        <p className={styles.text}>
          Go ad-free with <strong>Pro</strong>: premium features and priority support for {formatPence(PRO_PRICE_PENCE)} a month.
        </p>
        <Link to={routes.upgrade} className={styles.link}>
          See plans
        </Link>
      </div>
    </aside>
  );
}
