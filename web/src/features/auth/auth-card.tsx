import type { ReactNode } from 'react';
import styles from './auth-card.module.css';

/** The card every sign-in page sits in: the page's heading and what it is for, then its parts. */
export function AuthCard({ title, intro, children }: { title: string; intro: ReactNode; children: ReactNode }) {
  return (
    <div className={styles.page}>
      <div className={styles.card}>
        <div className={styles.heading}>
          <h1 className={styles.title}>{title}</h1>
          <p className={styles.tagline}>{intro}</p>
        </div>
        {children}
      </div>
    </div>
  );
}

/** Small links under a card's form ("Back to Login"). */
export function AuthLinks({ children }: { children: ReactNode }) {
  return <div className={styles.links}>{children}</div>;
}

/** A short paragraph of what happens or went wrong; `alert` when it is news the reader must hear. */
export function AuthNote({ alert, children }: { alert?: boolean; children: ReactNode }) {
  return (
    <div className={styles.note} role={alert ? 'alert' : undefined}>
      {children}
    </div>
  );
}

/** A link page that could not ask the server about its link (offline): the link may still work. */
export function LinkUnreachable() {
  return (
    <AuthNote alert>
      <p>
        <strong>The server cannot be reached.</strong> Check your connection, then open the link again.
      </p>
    </AuthNote>
  );
}

/** The address an e-mailed link was sent to, shown as it is (long addresses wrap). */
export function FixedEmail({ address }: { address: string }) {
  return <strong className={styles.fixedEmail}>{address}</strong>;
}

/** A command for the operator, as they would type it. */
export function Command({ children }: { children: string }) {
  return <code className={styles.command}>{children}</code>;
}
