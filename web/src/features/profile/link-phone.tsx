import { Smartphone } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/button';
import { Card } from '@/components/card';
import { PhoneVerification } from '@/components/phone-verification';
import type { Solver } from '@/lib/phone/captcha';
import { fetchProviders } from '@/lib/phone/phone-api';
import { useSessionStore } from '@/lib/session/use-session';
import styles from './profile-page.module.css';

/**
 * A guest keeps their account by adding a phone number: the same two steps as phone sign-in,
 * sent with the guest's session, so the server links the number to this very account (same
 * id, every entry kept). Hidden when the server has no SMS sender.
 */
export function LinkPhone({ solve }: { solve?: Solver }) {
  const session = useSessionStore();
  const [available, setAvailable] = useState(false);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    let live = true;
    void fetchProviders().then((providers) => {
      if (live) setAvailable(providers.phone);
    });
    return () => {
      live = false;
    };
  }, []);

  if (!available) return null;
  return (
    <Card className={styles.account} aria-labelledby="link-phone">
      <h2 id="link-phone" className={styles.sectionTitle}>
        Keep your data
      </h2>
      {open ? (
        <PhoneVerification
          verifyLabel="Verify and link"
          cancelLabel="Cancel"
          onCancel={() => setOpen(false)}
          solve={solve}
          // The session now names a phone account: the guest-only card goes away by itself.
          onVerified={({ user }) => session.signedIn(user)}
        />
      ) : (
        <>
          <p className={styles.muted}>You are signed in as a guest. Add a phone number to sign in again on any device.</p>
          <Button variant="secondary" onClick={() => setOpen(true)}>
            <Smartphone aria-hidden="true" />
            Add phone number
          </Button>
        </>
      )}
    </Card>
  );
}
