import { useNavigate } from 'react-router';
import { PhoneVerification } from '@/components/phone-verification';
import type { Solver } from '@/lib/phone/captcha';
import { routes } from '@/lib/paths';
import { signInNotKeptMessage } from '@/lib/session/sign-in-not-kept';
import { useSessionStore } from '@/lib/session/use-session';
import styles from './login-page.module.css';

/** The login card's phone option: number, texted code, then the dashboard. */
export function PhoneSignIn({ onBack, region, solve }: { onBack: () => void; region: string; solve?: Solver }) {
  const session = useSessionStore();
  const navigate = useNavigate();
  return (
    <div className={styles.page}>
      <div className={styles.card}>
        <div className={styles.heading}>
          <h1 className={styles.title}>Sign in with Phone</h1>
          <p className={styles.tagline}>Track your delivery stats efficiently</p>
        </div>
        <PhoneVerification
          verifyLabel="Verify and sign in"
          cancelLabel="Back to other sign-in options"
          onCancel={onBack}
          region={region}
          solve={solve}
          onVerified={async ({ user }) => {
            if (!(await session.confirmSignIn(user))) return signInNotKeptMessage('login', window.location);
            navigate(routes.dashboard, { replace: true });
            return null;
          }}
        />
      </div>
    </div>
  );
}
