import { Link2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { Spinner } from '@/components/spinner';
import { oidcFailureMessage, runOidcPopup } from '@/lib/oidc-popup';
import { apiPaths } from '@/lib/paths';
import { fetchProviders } from '@/lib/providers';
import { useSessionStore } from '@/lib/session/use-session';
import styles from './profile-page.module.css';

/**
 * Another way for a guest to keep the account: link a Google (the server's label) account to
 * this same account, keeping every entry. One already linked elsewhere is refused, never merged.
 */
export function LinkOidc() {
  const [oidc, setOidc] = useState<{ label: string } | null>(null);
  const session = useSessionStore();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void fetchProviders().then((providers) => {
      if (live) setOidc(providers.oidc);
    });
    return () => {
      live = false;
    };
  }, []);
  if (!oidc) return null;
  const { label } = oidc;

  async function link() {
    setError(null);
    // Opened before anything is awaited, so the browser counts it as the click's popup.
    const outcome = runOidcPopup(apiPaths.oidcLink);
    setPending(true);
    const result = await outcome;
    if (result.kind === 'success') {
      // The server rotated the session (the popup set the new cookie). Once the session says
      // the account is no longer a guest's, the guest-only card this sits in goes away.
      const user = await session.refresh().catch(() => null);
      if (user) return;
      setError(`Your ${label} account is linked. Reload the page to see it.`);
    } else {
      setError(oidcFailureMessage(result, label));
    }
    setPending(false);
  }

  return (
    <div className={styles.accountForm} role="group" aria-label={`Link ${label} account`}>
      <FormAlert message={error} />
      <Button variant="secondary" onClick={() => void link()} disabled={pending} aria-busy={pending}>
        {pending ? <Spinner size="sm" decorative /> : <Link2 aria-hidden="true" />}
        Link {label} account
      </Button>
    </div>
  );
}
