import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { Spinner } from '@/components/spinner';
import { TextField } from '@/components/text-field';
import { isApiError } from '@/lib/api';
import { passwordProblem } from '@/lib/credentials-schema';
import { routes } from '@/lib/paths';
import { useSessionStore } from '@/lib/session/use-session';
import { AuthCard, AuthLinks, AuthNote, FixedEmail, LinkUnreachable } from './auth-card';
import { acceptInvite } from './email-links';
import { useEmailLink } from './use-email-link';
import styles from './login-page.module.css';

/**
 * Opened from the operator's invitation (`delivery-tracker users invite`): sign up with the
 * invited address, which is fixed. Works while the server takes no other new accounts.
 */
export function InvitePage() {
  const link = useEmailLink('invite');
  return (
    <AuthCard title="Create your account" intro="You were invited to keep your delivery days in Delivery Tracker">
      {link.status === 'checking' ? <Spinner /> : null}
      {link.status === 'unreachable' ? <LinkUnreachable /> : null}
      {link.status === 'expired' ? (
        <AuthNote alert>
          <p>
            <strong>This invitation has expired or has already been used.</strong> Ask whoever invited you for a new one, or sign in if you already
            have an account.
          </p>
        </AuthNote>
      ) : null}
      {link.status === 'ready' ? <SignUpForm token={link.token} email={link.link.email} /> : null}
      <AuthLinks>
        <Link to={routes.login}>Back to Login</Link>
      </AuthLinks>
    </AuthCard>
  );
}

function SignUpForm({ token, email }: { token: string; email: string }) {
  const session = useSessionStore();
  const navigate = useNavigate();
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ displayName?: string | undefined; password?: string | undefined }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = passwordProblem(password);
    setErrors({ password: problem });
    setFailure(null);
    if (problem) return;
    setSaving(true);
    try {
      const { user } = await acceptInvite({ token, password, displayName: displayName.trim() || undefined });
      session.signedIn(user);
      navigate(routes.dashboard, { replace: true });
    } catch (caught) {
      setSaving(false);
      const fields = isApiError(caught) ? caught.fields : undefined;
      if (fields?.password?.[0] || fields?.displayName?.[0]) setErrors({ password: fields.password?.[0], displayName: fields.displayName?.[0] });
      else if (isApiError(caught) && caught.code === 'email-already-in-use') setFailure('This email is already registered');
      else if (isApiError(caught) && caught.code === 'link-expired') setFailure('This invitation has expired or has already been used.');
      else if (isApiError(caught) && caught.code === 'network') setFailure('Creating your account needs a connection.');
      else setFailure((isApiError(caught) && caught.message) || 'Failed to create account');
    }
  }

  return (
    <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Sign Up">
      <AuthNote>
        <p>
          Your account&apos;s email: <FixedEmail address={email} />
        </p>
      </AuthNote>
      <FormAlert message={failure} />
      {/* Lets a password manager file the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <TextField
        label="Display name"
        optional
        autoComplete="nickname"
        value={displayName}
        error={errors.displayName}
        onChange={(event) => setDisplayName(event.target.value)}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        value={password}
        error={errors.password}
        onChange={(event) => {
          setPassword(event.target.value);
          setErrors((current) => ({ ...current, password: undefined }));
        }}
      />
      <Button type="submit" block disabled={saving} aria-busy={saving}>
        {saving ? <Spinner size="sm" decorative /> : null}
        Sign Up
      </Button>
    </form>
  );
}
