import { CircleAlert, CircleCheck, CloudOff, RefreshCw, type LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { Spinner } from '@/components/spinner';
import { SUCCESS_MESSAGE_MS, useFlash } from '@/lib/flash';
import type { PaySetup } from '@/lib/sync/use-pay-setup';
import { useSyncHandle, useSyncStatus } from '@/lib/sync/use-sync';
import { useForm } from '@/lib/use-form';
import { localDay } from '@/lib/week';
import { shortStatusText, type SyncStatus } from '@/sync/status';
import type { LocalEntry } from '@/sync/types';
import { logDay } from './commands';
import { lastUsedCourierId } from './day-pricing';
import { EntryFields } from './entry-fields';
import { emptyEntryForm, entryFormSchema, entryMessages, saveFailureMessage } from './entry-form-schema';
import styles from './entry-form.module.css';

export { SUCCESS_MESSAGE_MS };

// The courier is left unchosen (''): it means the last used one, read when the day is saved.
const emptyForm = () => emptyEntryForm(localDay(new Date()));

interface EntryFormProps {
  /** Couriers and their cards: the card in force prices the day. Undefined while being read. */
  pay: PaySetup | undefined;
  /** The driver's days, for the last used courier. Undefined while being read. */
  entries: readonly LocalEntry[] | undefined;
}

/**
 * Log New Entry. "Saved" means stored on this device (with its outbox item); reaching the
 * server is the sync engine's job, shown by the indicator here and on the entry itself.
 * The card in force for the day's courier on its date prices it, and the total is fixed when
 * saved. Saving waits until the couriers and cards are read, so no day is priced by a card
 * that was simply not loaded yet.
 */
export function EntryForm({ pay, entries }: EntryFormProps) {
  const handle = useSyncHandle();
  const [saved, showSaved, clearSaved] = useFlash();
  const ready = pay !== undefined && entries !== undefined;
  const defaultCourierId = ready ? lastUsedCourierId(entries, pay.couriers, handle.db.userId) : handle.db.userId;
  const form = useForm({
    schema: entryFormSchema,
    initial: emptyForm,
    ready,
    command: (day) => logDay(handle, { ...day, courierId: day.courierId || defaultCourierId }, pay!.cards),
    onSuccess: (_entry, { reset }) => {
      reset(emptyForm());
      showSaved(entryMessages.saved);
    },
    failure: saveFailureMessage,
  });
  const headingId = useId();

  return (
    <section className={styles.card} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.title}>
        Log New Entry
      </h2>
      <form
        className={styles.form}
        onSubmit={(event) => {
          // A new attempt replaces the last one's confirmation.
          if (!form.submitting && ready) clearSaved();
          void form.submit(event);
        }}
        noValidate
      >
        <EntryFields form={form.values} errors={form.errors} onChange={form.setField} pay={pay} defaultCourierId={defaultCourierId} />
        {form.failure ? <FormAlert message={form.failure} /> : null}
        <div className={styles.actions}>
          <Button type="submit" disabled={form.submitting || !ready} aria-busy={form.submitting}>
            {form.submitting ? <Spinner size="sm" decorative /> : null}
            {form.submitting ? 'Saving...' : 'Save Entry'}
          </Button>
          <SyncIndicator />
        </div>
        <p role="status" className={styles.saved}>
          {saved ? (
            <>
              <CircleCheck aria-hidden="true" />
              {saved}
            </>
          ) : null}
        </p>
      </form>
    </section>
  );
}

const indicatorIcons: Record<SyncStatus['state'], LucideIcon> = {
  synced: CircleCheck,
  syncing: RefreshCw,
  pending: RefreshCw,
  offline: CloudOff,
  error: CircleAlert,
};

/** The form's own short sync indicator (spec §4): Syncing..., All changes saved, Working offline, Sync error. */
function SyncIndicator() {
  const status = useSyncStatus();
  // Changes waiting for the network (not for the server) read as offline.
  const look = status.state === 'pending' && status.offline ? 'offline' : status.state;
  const Icon = indicatorIcons[look];
  return (
    <span className={styles.indicator} data-state={look}>
      <Icon aria-hidden="true" />
      {shortStatusText(status)}
    </span>
  );
}
