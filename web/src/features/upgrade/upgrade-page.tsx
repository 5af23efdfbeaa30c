import { Check, Crown, Minus } from 'lucide-react';
import { useId, useRef, useState, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { Page } from '@/components/page';
import { Spinner } from '@/components/spinner';
import { formatPence } from '@/lib/format';
import { routes } from '@/lib/paths';
import { planFeatures, planOf, plansOn, PRO_PRICE_PENCE, type Plan } from '@/lib/plans';
import { useSession } from '@/lib/session/use-session';
import { useProfile } from '@/lib/sync-react/use-profile';
import { openCheckout, startUpgrade, type UpgradeStep } from './start-upgrade';
import styles from './upgrade-page.module.css';

/** Spec §2 "Upgrade page": Free and Pro side by side; nothing where the operator turned plans off. */
export function UpgradePage() {
  const session = useSession();
  if (session.status === 'signed-in' && !plansOn(session.user)) return <Navigate to={routes.dashboard} replace />;
  return <Plans />;
}

function Plans() {
  const profile = useProfile();
  const plan = profile ? planOf(profile.role) : null;
  const [step, setStep] = useState<Extract<UpgradeStep, { kind: 'explain' }> | null>(null);
  const [starting, setStarting] = useState(false);

  async function upgrade() {
    setStarting(true);
    const next = await startUpgrade();
    if (next.kind === 'checkout') {
      openCheckout(next.url);
      return;
    }
    setStarting(false);
    setStep(next);
  }

  return (
    <Page title="Upgrade to Pro" intro="Pro removes the banner, and that is all: both plans have every feature, offline and synced on all your devices.">
      <div className={styles.plans}>
        <PlanCard plan="free" name="Free" price="£0" current={plan === 'free'}>
          {plan === 'free' ? <p className={styles.yours}>Your plan</p> : null}
        </PlanCard>
        <PlanCard plan="pro" name="Pro" price={`${formatPence(PRO_PRICE_PENCE)} per month`} current={plan === 'pro'}>
          {plan === null ? null : plan === 'pro' ? (
            <Button block disabled>
              Current Plan
            </Button>
          ) : (
            <Button block onClick={() => void upgrade()} disabled={starting} aria-busy={starting}>
              {starting ? <Spinner size="sm" decorative /> : <Crown aria-hidden="true" />}
              Upgrade to Pro
            </Button>
          )}
        </PlanCard>
      </div>
      {step ? <ExplainDialog title={step.title} message={step.message} onClose={() => setStep(null)} /> : null}
    </Page>
  );
}

function PlanCard({ plan, name, price, current, children }: { plan: Plan; name: string; price: string; current: boolean; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className={styles.plan} data-plan={plan} data-current={current || undefined} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.name}>
        {plan === 'pro' ? <Crown aria-hidden="true" /> : null}
        {name}
      </h2>
      <p className={styles.price}>{price}</p>
      <ul className={styles.features}>
        {planFeatures[plan].map((feature) => (
          <li key={feature}>
            {plan === 'pro' ? <Check aria-hidden="true" /> : <Minus aria-hidden="true" />}
            {feature}
          </li>
        ))}
      </ul>
      <div className={styles.action}>{children}</div>
    </section>
  );
}

function ExplainDialog({ title, message, onClose }: { title: string; message: string; onClose: () => void }) {
  const titleId = useId();
  const messageId = useId();
  const okRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal labelledBy={titleId} describedBy={messageId} onEscape={onClose} initialFocus={okRef}>
      <h2 id={titleId} className={styles.dialogTitle}>
        {title}
      </h2>
      <p id={messageId} className={styles.dialogText}>
        {message}
      </p>
      <div className={styles.dialogActions}>
        <Button ref={okRef} onClick={onClose}>
          OK
        </Button>
      </div>
    </Modal>
  );
}
