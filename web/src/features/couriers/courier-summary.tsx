import type { CourierContent } from '@/sync/types';
import { periodRuleWords } from '@/core/pay-periods/pay-period';
import styles from './couriers.module.css';

/** A courier at a glance: its colour, its name and its pay period in words. */
export function CourierSummary({ courier }: { courier: CourierContent }) {
  return (
    <span className={styles.summary}>
      <span className={styles.dot} style={{ background: courier.colour }} aria-hidden="true" />
      <span className={styles.summaryText}>
        <span className={styles.name}>{courier.name}</span>
        <span className={styles.period}>{periodRuleWords(courier)}</span>
      </span>
    </span>
  );
}
