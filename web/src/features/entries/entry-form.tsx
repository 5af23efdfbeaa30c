import { CircleAlert, CircleCheck, CloudOff, RefreshCw, type LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { Spinner } from '@/components/spinner';
import { SUCCESS_MESSAGE_MS, useFlash } from '@/lib/flash';
import type { PayTier } from '@/lib/pay';
import { useSyncHandle, useSyncStatus } from '@/lib/sync/use-sync';
import { useForm } from '@/lib/use-form';
import { localDay } from '@/lib/week';
import { shortStatusText, type SyncStatus } from '@/sync/status';
import { saveDay } from './commands';
import { EntryFields } from './entry-fields';
import { entryFormSchema, entryMessages, saveFailureMessage, type EntryFormInput } from './entry-form-schema';
import styles from './entry-form.module.css';

export { SUCCESS_MESSAGE_MS };

const emptyForm = (): EntryFormInput => ({ date: localDay(new Date()), stops: '', extra: '', notes: '' });

/**
 * Log New Entry. "Saved" means stored on this device (with its outbox item); reaching the
 * server is the sync engine's job, shown by the indicator here and on the entry itself.
 * `tiers` price the day: the entry's total is fixed when it is saved. Undefined while the
 * profile is still being read: saving waits, so no day is priced with the wrong tiers.
 */
export function EntryForm({ tiers }: { tiers: readonly PayTier[] | undefined }) {
  const handle = useSyncHandle();
  const [saved, showSaved, clearSaved] = useFlash();
  const form = useForm({
    schema: entryFormSchema,
    initial: emptyForm,
    ready: tiers !== undefined,
    command: (day) => saveDay(handle, day, tiers!),
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
          if (!form.submitting && tiers) clearSaved();
          void form.submit(event);
        }}
        noValidate
      >
        <EntryFields form={form.values} errors={form.errors} onChange={form.setField} tiers={tiers} />
        {form.failure ? <FormAlert message={form.failure} /> : null}
        <div className={styles.actions}>
          <Button type="submit" disabled={form.submitting || !tiers} aria-busy={form.submitting}>
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
