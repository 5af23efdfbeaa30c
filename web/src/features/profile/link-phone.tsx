import { Smartphone } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/button';
import { PhoneVerification } from '@/components/phone-verification';
import type { Solver } from '@/lib/phone/captcha';
import { fetchProviders } from '@/lib/providers';
import { useSessionStore } from '@/lib/session/use-session';
import styles from './profile-page.module.css';

/**
 * A guest keeps their account by adding a phone number: the same two steps as phone sign-in,
 * sent with the guest's session, so the server links the number to this very account (same
 * id, every entry kept). Shown inside the "Keep your account" card; hidden when the server has
 * no SMS sender.
 */
export function LinkPhone({ solve }: { solve?: Solver }) {
  const session = useSessionStore();
  // The server's phone region when it offers phone sign-in, else null (nothing shown).
  const [region, setRegion] = useState<string | null>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    let live = true;
    void fetchProviders().then((providers) => {
      if (live) setRegion(providers.phone ? providers.phoneRegion : null);
    });
    return () => {
      live = false;
    };
  }, []);

  if (region === null) return null;
  return (
    <div className={styles.accountForm}>
      {open ? (
        <PhoneVerification
          verifyLabel="Verify and link"
          cancelLabel="Cancel"
          onCancel={() => setOpen(false)}
          region={region}
          solve={solve}
          // The session now names a phone account: the guest-only card goes away by itself.
          onVerified={({ user }) => session.signedIn(user)}
        />
      ) : (
        <>
          <p className={styles.muted}>Or sign in with your phone number instead.</p>
          <Button variant="secondary" onClick={() => setOpen(true)}>
            <Smartphone aria-hidden="true" />
            Add phone number
          </Button>
        </>
      )}
    </div>
  );
}
