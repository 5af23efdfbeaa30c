import { Button } from '@/components/button';
import { ChangePassword } from './change-password';
import { useSession, useSessionStore } from '@/lib/session/use-session';
import styles from './choose-new-password.module.css';

/**
 * Shown instead of the app while the password is temporary (an operator's `users
 * reset-password`): the server refuses every other write until a new one is chosen. The
 * session is re-read after the change, so the app opens by itself; unsent changes wait in the
 * outbox meanwhile and go out then.
 */
export function ChooseNewPassword() {
  const session = useSessionStore();
  // Signed in with the temporary password just now: it is not asked for again.
  const proved = useSession().user?.signedInWithTemporaryPassword === true;
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <div className={styles.heading}>
          <h1 className={styles.title}>Choose a new password</h1>
          <p className={styles.tagline}>
            {proved ? 'Your password was reset and is temporary. Pick your own below.' : 'Your password was reset and is temporary. Use it as the current password below, then pick your own.'}
          </p>
        </div>
        <ChangePassword title="Your own password" askCurrent={!proved} onChanged={() => void session.refresh().catch(() => undefined)} />
        <Button variant="ghost" block onClick={() => void session.signOut().catch(() => undefined)}>
          Sign out
        </Button>
      </div>
    </main>
  );
}
