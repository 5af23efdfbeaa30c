import { Crown, X } from 'lucide-react';
import { Link } from 'react-router';
import { formatPence } from '@/lib/format';
import { routes } from '@/lib/paths';
import { PRO_PRICE_PENCE } from '@/lib/plans';
import styles from './pro-banner.module.css';

/**
 * The free plan's "ad": one slim line for Pro in its own slot under the header, which the driver
 * can hide for a week. No third-party code or assets, so it works offline and tracks nobody.
 */
export function ProBanner({ onHide }: { onHide: () => void }) {
  return (
    <aside className={styles.banner} aria-label="Pro plan">
      <div className={styles.inner}>
        <Crown aria-hidden="true" className={styles.icon} />
        <Link to={routes.upgrade} className={styles.link}>
          Go ad-free with <strong>Pro</strong> for {formatPence(PRO_PRICE_PENCE)} a month
        </Link>
        <button type="button" className={styles.hide} onClick={onHide} aria-label="Hide for a week" title="Hide for a week">
          <X aria-hidden="true" />
        </button>
      </div>
    </aside>
  );
}
