import { AlertTriangle } from 'lucide-react';
import { routes } from '@/lib/paths';
import { ButtonLink } from './button';
import styles from './error-screen.module.css';

/** The spec's generic error screen. `detail` is shown only when the caller opts in. */
export function ErrorScreen({ detail }: { detail?: string | undefined }) {
  return (
    <main className={styles.screen}>
      <div className={styles.box}>
        <AlertTriangle aria-hidden="true" className={styles.icon} />
        <h1 className={styles.title}>Something went wrong</h1>
        <p>We&apos;re sorry, but there was an error loading this content.</p>
        {detail ? <pre className={styles.detail}>{detail}</pre> : null}
        <ButtonLink to={routes.dashboard} reloadDocument>
          Return to Dashboard
        </ButtonLink>
      </div>
    </main>
  );
}
