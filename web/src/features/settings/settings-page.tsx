import { ChevronDown, Pencil, Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormAlert } from '@/components/form-alert';
import { Page } from '@/components/page';
import { Spinner } from '@/components/spinner';
import { deleteCourier } from '@/features/couriers/commands';
import { CourierForm } from '@/features/couriers/courier-form';
import { CourierSummary } from '@/features/couriers/courier-summary';
import { DeductionsView } from '@/features/deductions/deductions-view';
import { starterRules } from '@/features/rate-cards/card-form-schema';
import { rateCardMessages } from '@/features/rate-cards/rate-card-messages';
import { RateCardsView } from '@/features/rate-cards/rate-cards-view';
import { ReminderDaysForm } from '@/features/statement-queries/reminder-days-form';
import type { PaySetup } from '@/lib/sync-react/use-pay-setup';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useNow } from '@/lib/use-now';
import { localDay } from '@/lib/week';
import type { LocalCourier } from '@/sync/types';
import { usePaySetupRead } from './use-pay-setup-read';
import styles from './settings-page.module.css';

const intro = 'Who you work for and how each pays you. New days are priced with the rates in force on their date; days already logged keep their pay unless you re-price them.';

/** Spec §4 "Payment settings", grown into couriers: loading, then each courier's rates and deductions. */
export function SettingsPage() {
  const read = usePaySetupRead();
  return (
    <Page title="Payment Settings" intro={intro}>
      {read.status === 'loading' ? (
        <Spinner label="Loading payment settings" />
      ) : read.status === 'failed' ? (
        <FormAlert message={rateCardMessages.loadFailed} />
      ) : (
        <CouriersAndPay setup={read.setup} />
      )}
      <QueryReminder />
    </Page>
  );
}

function CouriersAndPay({ setup }: { setup: PaySetup }) {
  const headingId = useId();
  const today = localDay(useNow());
  const [adding, setAdding] = useState(false);
  // null: nothing toggled yet, so the first courier is open.
  const [open, setOpen] = useState<ReadonlySet<string> | null>(null);
  const expanded = open ?? new Set(setup.couriers.slice(0, 1).map((c) => c.id));
  const toggle = (id: string, to = !expanded.has(id)) => {
    const next = new Set(expanded);
    if (to) next.add(id);
    else next.delete(id);
    setOpen(next);
  };

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <div className={styles.head}>
        <h2 id={headingId} className={styles.title}>
          Couriers &amp; pay
        </h2>
        {adding ? null : (
          <Button variant="secondary" onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" />
            Add courier
          </Button>
        )}
      </div>
      {adding ? (
        <CourierForm
          firstCard={starterRules()}
          today={today}
          usedColours={setup.couriers.map((c) => c.colour)}
          onSaved={(courier) => {
            setAdding(false);
            toggle(courier.id, true);
          }}
          onCancel={() => setAdding(false)}
        />
      ) : null}
      {setup.couriers.length === 0 ? <p className={styles.hint}>Your courier arrives with the first sync; you can add others now.</p> : null}
      <ul className={styles.couriers}>
        {setup.couriers.map((courier) => (
          <CourierItem key={courier.id} courier={courier} setup={setup} today={today} expanded={expanded.has(courier.id)} onToggle={() => toggle(courier.id)} />
        ))}
      </ul>
    </section>
  );
}

/** When a query about a statement that has had no answer is a reminder: where a driver looks for it, as on the query page. */
function QueryReminder() {
  const headingId = useId();
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.title}>
        Statement queries
      </h2>
      <p className={styles.hint}>A query you have sent and had no answer to shows as a reminder on the dashboard after this many days.</p>
      <ReminderDaysForm />
    </section>
  );
}

interface CourierItemProps {
  courier: LocalCourier;
  setup: PaySetup;
  today: string;
  expanded: boolean;
  onToggle: () => void;
}

/** One courier: its summary, and when opened its details, rate cards and deductions. */
function CourierItem({ courier, setup, today, expanded, onToggle }: CourierItemProps) {
  const handle = useSyncHandle();
  const panelId = useId();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  async function remove() {
    setConfirming(false);
    const outcome = await deleteCourier(handle, courier);
    setRefusal(outcome.deleted ? null : outcome.reason);
  }

  return (
    <li className={styles.courier} style={{ borderLeftColor: courier.colour }}>
      <button type="button" className={styles.toggle} aria-expanded={expanded} aria-controls={panelId} onClick={onToggle}>
        <CourierSummary courier={courier} />
        <ChevronDown aria-hidden="true" className={styles.chevron} />
      </button>
      {expanded ? (
        <div id={panelId} className={styles.details}>
          {editing ? (
            <CourierForm editing={courier} firstCard={starterRules()} today={today} usedColours={[]} onSaved={() => setEditing(false)} onCancel={() => setEditing(false)} />
          ) : (
            <div className={styles.courierActions}>
              <Button variant="ghost" onClick={() => setEditing(true)} aria-label={`Edit ${courier.name}`}>
                <Pencil aria-hidden="true" />
                Edit
              </Button>
              <Button variant="ghost" onClick={() => setConfirming(true)} aria-label={`Delete ${courier.name}`}>
                <Trash2 aria-hidden="true" />
                Delete
              </Button>
            </div>
          )}
          {refusal ? <FormAlert message={refusal} /> : null}
          <RateCardsView courierId={courier.id} courierName={courier.name} cards={setup.cards.filter((c) => c.courierId === courier.id)} today={today} />
          <DeductionsView courierId={courier.id} courierName={courier.name} deductions={setup.deductions.filter((d) => d.courierId === courier.id)} today={today} />
        </div>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={`Delete ${courier.name}?`}
          message="Its rate cards and deductions are deleted with it."
          confirmLabel="Delete courier"
          onConfirm={() => void remove()}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </li>
  );
}
