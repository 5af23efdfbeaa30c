import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { Spinner } from '@/components/spinner';
import { oidcFailureMessage, runOidcPopup } from '@/lib/oidc-popup';
import { apiPaths, routes } from '@/lib/paths';
import { signInNotKeptMessage } from '@/lib/session/sign-in-not-kept';
import { useSessionStore } from '@/lib/session/use-session';

/** "Sign in with Google" (the server's label), shown only when the server offers it. */
export function OidcSignIn({ oidc, disabled }: { oidc: { label: string } | null; disabled: boolean }) {
  const session = useSessionStore();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!oidc) return null;
  const { label } = oidc;

  async function signIn() {
    setError(null);
    // Opened before anything is awaited, so the browser counts it as the click's popup.
    const outcome = runOidcPopup(apiPaths.oidcStart);
    setPending(true);
    const result = await outcome;
    if (result.kind === 'success') {
      let message = `Failed to login with ${label}`;
      try {
        // The popup's response set the session cookie; ask the server who we are now.
        if (await session.refresh()) {
          navigate(routes.dashboard, { replace: true });
          return;
        }
        // Signed in at the provider and on the server, yet signed out here: the cookie was dropped.
        message = signInNotKeptMessage('login', window.location);
      } catch {
        // Unreachable server: the generic message.
      }
      setError(message);
    } else {
      setError(oidcFailureMessage(result, label));
    }
    setPending(false);
  }

  return (
    <>
      <FormAlert message={error} />
      <Button variant="secondary" block disabled={disabled || pending} aria-busy={pending} onClick={() => void signIn()}>
        {pending ? <Spinner size="sm" decorative /> : null}
        Sign in with {label}
      </Button>
    </>
  );
}
