import { Crown, LogOut } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Avatar } from '@/components/avatar';
import { Button, ButtonLink } from '@/components/button';
import { Card } from '@/components/card';
import { FormAlert } from '@/components/form-alert';
import { Page } from '@/components/page';
import { Spinner } from '@/components/spinner';
import { isApiError } from '@/lib/api';
import { routes } from '@/lib/paths';
import { isPro } from '@/lib/session/user';
import { useSession, useSessionStore } from '@/lib/session/use-session';
import styles from './profile-page.module.css';

// Profile editing, the picture upload and achievements arrive with the profile issue.
export function ProfilePage() {
  const session = useSession();
  const store = useSessionStore();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (session.status !== 'signed-in') {
    return (
      <Page title="Profile">
        <p>User not authenticated. Please log in.</p>
        <ButtonLink to={routes.login}>Go to Login</ButtonLink>
      </Page>
    );
  }

  const { user } = session;
  const pro = isPro(user);

  async function signOut() {
    setSigningOut(true);
    setError(null);
    try {
      await store.signOut();
      navigate(routes.home, { replace: true });
    } catch (caught) {
      setError((isApiError(caught) && caught.message) || 'Failed to logout');
      setSigningOut(false);
    }
  }

  return (
    <Page title="Profile">
      <Card className={styles.identity} aria-label="Your profile">
        <Avatar photoURL={user.photoURL} size="lg" />
        <div className={styles.details}>
          <h2 className={styles.name}>{user.displayName}</h2>
          {user.email ? <p className={styles.email}>{user.email}</p> : null}
          <p className={styles.plan} data-plan={pro ? 'pro' : 'free'}>
            {pro ? <Crown aria-hidden="true" /> : null}
            {pro ? 'Pro Member' : 'Free User'}
          </p>
        </div>
      </Card>

      <Card className={styles.account} aria-labelledby="account-settings">
        <h2 id="account-settings" className={styles.sectionTitle}>
          Account Settings
        </h2>
        <FormAlert message={error} />
        <Button variant="danger" onClick={() => void signOut()} disabled={signingOut} aria-busy={signingOut}>
          {signingOut ? <Spinner size="sm" decorative /> : <LogOut aria-hidden="true" />}
          Sign Out
        </Button>
      </Card>
    </Page>
  );
}
