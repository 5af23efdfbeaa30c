import { CircleCheck, Crown, LogOut, Pencil } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, ButtonLink } from '@/components/button';
import { Card } from '@/components/card';
import { EmailAddress } from '@/components/email-address';
import { FormAlert } from '@/components/form-alert';
import { Page } from '@/components/page';
import { Spinner } from '@/components/spinner';
import { isApiError } from '@/lib/api';
import { useFlash } from '@/lib/flash';
import { routes } from '@/lib/paths';
import { planLabel, planOf, plansOn } from '@/lib/plans';
import type { User } from '@/lib/session/user';
import { useSession, useSessionStore } from '@/lib/session/use-session';
import { profileView, useProfileDoc, type ProfileView } from '@/lib/sync-react/use-profile';
import { AchievementsCard } from './achievements-card';
import { ChangePassword } from './change-password';
import { GuestUpgrade } from './guest-upgrade';
import { LinkOidc } from './link-oidc';
import { LinkPhone } from './link-phone';
import { PhotoUpload } from './photo-upload';
import { ProfileForm } from './profile-form';
import { SessionsCard } from './sessions-card';
import { profileMessages } from './profile-schema';
import { ThemeToggle } from './theme-toggle';
import styles from './profile-page.module.css';

export function ProfilePage() {
  const session = useSession();
  if (session.status !== 'signed-in') {
    return (
      <Page title="Profile">
        <p>User not authenticated. Please log in.</p>
        <ButtonLink to={routes.login}>Go to Login</ButtonLink>
      </Page>
    );
  }
  return <SignedInProfile user={session.user} />;
}

function SignedInProfile({ user }: { user: User }) {
  const read = useProfileDoc();
  const [editing, setEditing] = useState(false);
  const [updated, showUpdated] = useFlash();

  if (read.status === 'loading') {
    return (
      <Page title="Profile">
        <Spinner label="Loading profile" />
      </Page>
    );
  }
  // If the device's store cannot be read, the session's copy still shows who is signed in.
  const profile = profileView(read.status === 'ready' ? read.doc : undefined, user);

  return (
    <Page title="Profile">
      {read.status === 'failed' ? <FormAlert message={profileMessages.loadFailed} /> : null}
      {/* One block, so the status line below the card takes no room while it is empty. */}
      <div className={styles.profileBlock}>
        {editing ? (
          <ProfileForm
            profile={profile}
            onCancel={() => setEditing(false)}
            onSaved={() => {
              setEditing(false);
              showUpdated(profileMessages.updated);
            }}
          />
        ) : (
          <ProfileDetails profile={profile} plans={plansOn(user)} onEdit={() => setEditing(true)} />
        )}
        <p role="status" className={styles.success}>
          {updated ? (
            <>
              <CircleCheck aria-hidden="true" />
              {updated}
            </>
          ) : null}
        </p>
      </div>
      <AchievementsCard />
      {user.isAnonymous ? (
        <GuestUpgrade>
          <LinkPhone />
          <LinkOidc />
        </GuestUpgrade>
      ) : null}
      {user.email && !user.isAnonymous ? <ChangePassword /> : null}
      <SessionsCard />
      <AccountSettings />
    </Page>
  );
}

/** `plans`: the server has plans (PLANS_ENABLED); without them there is no plan to show. */
function ProfileDetails({ profile, plans, onEdit }: { profile: ProfileView; plans: boolean; onEdit: () => void }) {
  const plan = planOf(profile.role);
  return (
    <Card className={styles.profileCard} aria-label="Your profile">
      <PhotoUpload photoURL={profile.photoURL}>
        <div className={styles.details}>
          <h2 className={styles.name}>{profile.displayName}</h2>
          {profile.email ? (
            <p className={styles.email}>
              <EmailAddress address={profile.email} />
            </p>
          ) : (
            <p className={styles.email}>{profile.isAnonymous ? 'Guest account: no email address' : 'No email address'}</p>
          )}
          {plans ? (
            <Link to={routes.upgrade} className={styles.plan} data-plan={plan}>
              {plan === 'pro' ? <Crown aria-hidden="true" /> : null}
              {planLabel[plan]}
            </Link>
          ) : null}
        </div>
      </PhotoUpload>
      <div className={styles.bioBlock}>
        <h3 className={styles.label}>Bio</h3>
        {profile.bio ? <p className={styles.bio}>{profile.bio}</p> : <p className={styles.muted}>No bio yet.</p>}
      </div>
      {profile.syncState === 'pending' ? <p className={styles.muted}>Changes saved on this device, waiting to sync.</p> : null}
      {profile.syncState === 'parked' ? (
        <p className={styles.parked}>A change was not accepted by the server: see Changes not synced on the dashboard.</p>
      ) : null}
      <div className={styles.actions}>
        <Button onClick={onEdit}>
          <Pencil aria-hidden="true" />
          Edit Profile
        </Button>
      </div>
    </Card>
  );
}

function AccountSettings() {
  const store = useSessionStore();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  const [error, setError] = useState<string | null>(null);

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
    <Card className={styles.account} aria-labelledby="account-settings">
      <h2 id="account-settings" className={styles.sectionTitle}>
        Account Settings
      </h2>
      <ThemeToggle />
      <FormAlert message={error} />
      <Button variant="danger" onClick={() => void signOut()} disabled={signingOut} aria-busy={signingOut}>
        {signingOut ? <Spinner size="sm" decorative /> : <LogOut aria-hidden="true" />}
        Sign Out
      </Button>
    </Card>
  );
}
