import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { Spinner } from '@/components/spinner';
import { TextField } from '@/components/text-field';
import { isApiError } from '@/lib/api';
import { validateCredentials } from '@/lib/credentials-schema';
import { routes } from '@/lib/paths';
import { fetchProviders, type Providers } from '@/lib/providers';
import { AuthCard, AuthLinks, AuthNote, Command, FixedEmail } from './auth-card';
import { requestPasswordReset } from './email-links';
import styles from './login-page.module.css';

/**
 * "Forgot password?": with SMTP configured the server e-mails a link (the same answer whether or
 * not the address has an account); without it, the operator resets passwords, and the page says
 * how.
 */
export function ForgotPasswordPage() {
  const [providers, setProviders] = useState<Providers | null>(null);
  useEffect(() => {
    let live = true;
    void fetchProviders().then((answer) => {
      if (live) setProviders(answer);
    });
    return () => {
      live = false;
    };
  }, []);

  return (
    <AuthCard title="Forgot your password?" intro="Choose a new one with a link sent to your email">
      {providers === null ? <Spinner /> : providers.passwordReset ? <ResetByEmail /> : <AskTheOperator />}
      <AuthLinks>
        <Link to={routes.login}>Back to Login</Link>
      </AuthLinks>
    </AuthCard>
  );
}

function ResetByEmail() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The login form's own e-mail check; the password is not asked for here.
    const checked = validateCredentials({ email, password: 'unused', displayName: '' });
    setFailure(null);
    if (!checked.ok) {
      setError(checked.errors.email);
      return;
    }
    setError(undefined);
    setSending(true);
    try {
      await requestPasswordReset(checked.value.email);
      setSentTo(checked.value.email);
    } catch (caught) {
      if (isApiError(caught) && caught.code === 'network') setFailure('Asking for a link needs a connection.');
      else if (isApiError(caught) && caught.code === 'invalid-email') setError('Invalid email address');
      else setFailure((isApiError(caught) && caught.message) || 'Failed to send the link. Please try again later.');
    } finally {
      setSending(false);
    }
  }

  if (sentTo !== null) {
    return (
      <div role="status">
        <AuthNote>
          <p>
            If an account uses <FixedEmail address={sentTo} />, we have emailed it a link to choose a new password.
          </p>
          <p>The link works once, within an hour. Nothing there after a few minutes? Check your spam folder, or ask again.</p>
        </AuthNote>
      </div>
    );
  }
  return (
    <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Ask for a link">
      <FormAlert message={failure} />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        value={email}
        error={error}
        onChange={(event) => {
          setEmail(event.target.value);
          setError(undefined);
        }}
      />
      <Button type="submit" block disabled={sending} aria-busy={sending}>
        {sending ? <Spinner size="sm" decorative /> : null}
        Email me a link
      </Button>
    </form>
  );
}

/** No SMTP (or no PUBLIC_URL): passwords are reset by whoever runs the server. */
function AskTheOperator() {
  return (
    <AuthNote>
      <p>
        <strong>This server does not send emails, so its operator resets passwords.</strong> Ask the person or company that runs your Delivery Tracker to
        reset yours. They run this on the server:
      </p>
      <Command>delivery-tracker users reset-password YOUR-EMAIL</Command>
      <p>You then sign in with the temporary password they give you, and choose your own.</p>
    </AuthNote>
  );
}
