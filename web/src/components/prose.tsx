import type { ReactNode } from 'react';
import styles from './prose.module.css';

/** Long-form text (policies, help): comfortable line length and spacing between sections. */
export function Prose({ children }: { children: ReactNode }) {
  return <div className={styles.prose}>{children}</div>;
}
