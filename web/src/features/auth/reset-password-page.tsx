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
import { resetPassword } from './email-links';
import { useEmailLink } from './use-email-link';
import styles from './login-page.module.css';

/** Opened from the e-mailed reset link: choose a new password, signed in straight after. */
export function ResetPasswordPage() {
  const link = useEmailLink('password-reset');
  return (
    <AuthCard title="Choose a new password" intro="Setting it signs you out on every other device">
      {link.status === 'checking' ? <Spinner /> : null}
      {link.status === 'unreachable' ? <LinkUnreachable /> : null}
      {link.status === 'expired' ? (
        <AuthNote alert>
          <p>
            <strong>This link has expired or has already been used.</strong> A reset link works once, within an hour of asking.
          </p>
        </AuthNote>
      ) : null}
      {link.status === 'ready' ? <NewPasswordForm token={link.token} email={link.link.email} /> : null}
      <AuthLinks>
        {link.status === 'ready' ? null : <Link to={routes.forgotPassword}>Email me a new link</Link>}
        <Link to={routes.login}>Back to Login</Link>
      </AuthLinks>
    </AuthCard>
  );
}

function NewPasswordForm({ token, email }: { token: string; email: string }) {
  const session = useSessionStore();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = passwordProblem(password);
    setError(problem);
    setFailure(null);
    if (problem) return;
    setSaving(true);
    try {
      const { user } = await resetPassword({ token, password });
      session.signedIn(user);
      navigate(routes.dashboard, { replace: true });
    } catch (caught) {
      setSaving(false);
      const field = isApiError(caught) ? caught.fields?.password?.[0] : undefined;
      if (field) setError(field);
      else if (isApiError(caught) && caught.code === 'link-expired') setFailure('This link has expired or has already been used. Ask for a new one.');
      else if (isApiError(caught) && caught.code === 'network') setFailure('Setting a new password needs a connection.');
      else setFailure((isApiError(caught) && caught.message) || 'Failed to set the new password');
    }
  }

  return (
    <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate>
      <AuthNote>
        <p>
          For <FixedEmail address={email} />
        </p>
      </AuthNote>
      <FormAlert message={failure} />
      {/* Lets a password manager file the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        value={password}
        error={error}
        onChange={(event) => {
          setPassword(event.target.value);
          setError(undefined);
        }}
      />
      <Button type="submit" block disabled={saving} aria-busy={saving}>
        {saving ? <Spinner size="sm" decorative /> : null}
        Set new password
      </Button>
    </form>
  );
}
