import type { ReactNode } from 'react';
import styles from './page.module.css';

/** A screen's content column: one h1, then the screen's sections. */
export function Page({ title, intro, children }: { title: string; intro?: ReactNode; children?: ReactNode }) {
  return (
    <div className={styles.page}>
      <div className={styles.header}>
        <h1 className={styles.title}>{title}</h1>
        {intro ? <div className={styles.intro}>{intro}</div> : null}
      </div>
      {children}
    </div>
  );
}
