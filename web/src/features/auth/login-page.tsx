import { lazy, Suspense, useState, useSyncExternalStore, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { Spinner } from '@/components/spinner';
import { TextField } from '@/components/text-field';
import { isApiError } from '@/lib/api';
import { routes } from '@/lib/paths';
import { signInNotKeptMessage } from '@/lib/session/sign-in-not-kept';
import type { AuthResponse } from '@/lib/session/user';
import { useSessionStore } from '@/lib/session/use-session';
import { authErrorMessage, type AuthAction } from './auth-messages';
import { continueAsGuest, logIn, signUp } from './commands';
import { validateCredentials, type CredentialsErrors, type CredentialsInput } from '@/lib/credentials-schema';
import { modeFromSearch, tabId, type Mode } from './mode';
import { AuthCard } from './auth-card';
import { ModeTabs } from './mode-tabs';
import { OidcSignIn } from './oidc-sign-in';
import { useProviders } from './use-providers';
import styles from './login-page.module.css';

// Opened by a button, and it brings zod, the captcha solver and the phone number rules: loaded
// on demand, so the login page's first load carries none of them.
const PhoneSignIn = lazy(() => import('./phone-sign-in').then((m) => ({ default: m.PhoneSignIn })));

const panelId = 'auth-panel';
const neverChanges = () => () => {};

/**
 * The tab the link asked for. The page is prerendered on its Login tab (scripts/prerender.ts):
 * while React adopts that markup it reads Login too (the server snapshot), then switches, so a
 * link straight to Sign Up neither mismatches the markup nor waits for an effect.
 */
function useLinkedMode(): Mode {
  const { search } = useLocation();
  return useSyncExternalStore(neverChanges, () => modeFromSearch(search), () => 'login');
}
const emptyForm: CredentialsInput = { email: '', password: '', displayName: '' };

export function LoginPage() {
  const session = useSessionStore();
  const navigate = useNavigate();
  const linked = useLinkedMode();
  const [chosen, setMode] = useState<Mode | null>(null);
  const mode = chosen ?? linked;
  const [form, setForm] = useState<CredentialsInput>(emptyForm);
  const [fieldErrors, setFieldErrors] = useState<CredentialsErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<'credentials' | 'guest' | null>(null);
  const providers = useProviders();
  const [phoneOpen, setPhoneOpen] = useState(false);
  // A server that closed sign-ups only signs in, whatever tab was picked before it answered.
  const signingUp = mode === 'sign-up' && providers.signups;

  function changeMode(next: Mode) {
    setMode(next);
    setFieldErrors({});
    setError(null);
  }

  function update(field: keyof CredentialsInput, value: string) {
    setForm((current) => ({ ...current, [field]: value }));
    // The message described the old value; keep it only until the user acts on it.
    setFieldErrors((current) => ({ ...current, [field]: undefined }));
  }

  async function run(kind: 'credentials' | 'guest', action: AuthAction, call: () => Promise<AuthResponse>) {
    setPending(kind);
    setError(null);
    session.signingIn();
    try {
      const { user } = await call();
      if (!(await session.confirmSignIn(user))) {
        setError(signInNotKeptMessage(kind === 'guest' ? 'guest' : action, window.location));
        setPending(null);
        return;
      }
      navigate(routes.dashboard, { replace: true });
    } catch (caught) {
      const fields = isApiError(caught) && caught.fields ? firstOfEach(caught.fields) : {};
      setFieldErrors(fields);
      // A refusal about a field (a weak password) is shown under that field, not twice.
      setError(Object.keys(fields).length > 0 ? null : authErrorMessage(caught, action));
      setPending(null);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = validateCredentials(form);
    if (!result.ok) {
      setFieldErrors(result.errors);
      setError(null);
      return;
    }
    const { email, password, displayName } = result.value;
    if (signingUp) void run('credentials', 'sign-up', () => signUp({ email, password, displayName }));
    else void run('credentials', 'login', () => logIn({ email, password }));
  }

  const busy = pending !== null;
  if (phoneOpen) {
    return (
      <Suspense fallback={<Spinner />}>
        <PhoneSignIn onBack={() => setPhoneOpen(false)} region={providers.phoneRegion} />
      </Suspense>
    );
  }
  return (
    <AuthCard title="Delivery Tracker" intro="Track your delivery stats efficiently">
      {providers.signups ? (
        <ModeTabs mode={mode} panelId={panelId} onChange={changeMode} />
      ) : (
        <p className={styles.closed}>New accounts are closed on this server. Sign in with an account you already have.</p>
      )}

      {/* The tab panel wraps the form: a form may not take the tabpanel role (ARIA in HTML). */}
      <div id={panelId} role={providers.signups ? 'tabpanel' : undefined} aria-labelledby={providers.signups ? tabId(mode) : undefined}>
        <form
          aria-labelledby={providers.signups ? tabId(mode) : undefined}
          aria-label={providers.signups ? undefined : 'Login'}
          className={styles.form}
          onSubmit={onSubmit}
          noValidate
        >
          <FormAlert message={error} />
          {signingUp ? (
            <TextField
              label="Display name"
              optional
              autoComplete="nickname"
              value={form.displayName}
              error={fieldErrors.displayName}
              onChange={(event) => update('displayName', event.target.value)}
            />
          ) : null}
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            value={form.email}
            error={fieldErrors.email}
            onChange={(event) => update('email', event.target.value)}
          />
          <TextField
            label="Password"
            type="password"
            autoComplete={signingUp ? 'new-password' : 'current-password'}
            required
            value={form.password}
            error={fieldErrors.password}
            onChange={(event) => update('password', event.target.value)}
          />
          {signingUp ? null : (
            <Link to={routes.forgotPassword} className={styles.forgot}>
              Forgot password?
            </Link>
          )}
          <Button type="submit" block disabled={busy} aria-busy={pending === 'credentials'}>
            {pending === 'credentials' ? <Spinner size="sm" decorative /> : null}
            {signingUp ? 'Sign Up' : 'Login'}
          </Button>
        </form>
      </div>

      <div className={styles.divider} aria-hidden="true" />

      {providers.guests ? (
        <Button
          variant="secondary"
          block
          disabled={busy}
          aria-busy={pending === 'guest'}
          onClick={() => void run('guest', 'login', continueAsGuest)}
        >
          {pending === 'guest' ? <Spinner size="sm" decorative /> : null}
          Continue as guest
        </Button>
      ) : null}
      {providers.phone ? (
        <Button variant="secondary" block disabled={busy} onClick={() => setPhoneOpen(true)}>
          Sign in with Phone
        </Button>
      ) : null}
      <OidcSignIn oidc={providers.oidc} disabled={busy} />
    </AuthCard>
  );
}

function firstOfEach(fields: Record<string, string[]>): CredentialsErrors {
  const errors: CredentialsErrors = {};
  for (const key of ['email', 'password', 'displayName'] as const) {
    const first = fields[key]?.[0];
    if (first) errors[key] = first;
  }
  return errors;
}
