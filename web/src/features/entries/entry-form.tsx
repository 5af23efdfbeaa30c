import { CircleAlert, CircleCheck, CloudOff, RefreshCw, type LucideIcon } from 'lucide-react';
import { useId, useState } from 'react';
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
import { logDay, sameDayEntries } from './commands';
import { lastUsedCourierId, type DayDraft } from './day-pricing';
import { EntryFields } from './entry-fields';
import { formPaidFields, needsOf } from './form-card';
import { emptyEntryForm, entryFormSchema, entryMessages, saveFailureMessage } from './entry-form-schema';
import { SameDayNotice } from './same-day-notice';
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
  // A day for this courier and date is already logged: the driver chooses before anything is saved.
  const [sameDay, setSameDay] = useState<{ day: DayDraft; logged: LocalEntry[] } | null>(null);
  const ready = pay !== undefined && entries !== undefined;
  const defaultCourierId = ready ? lastUsedCourierId(entries, pay.couriers, handle.db.userId) : handle.db.userId;
  const form = useForm({
    schema: (values) => entryFormSchema(needsOf(formPaidFields(pay, values, defaultCourierId))),
    initial: emptyForm,
    ready,
    command: async (typed): Promise<LocalEntry | null> => {
      const day: DayDraft = { ...typed, courierId: typed.courierId || defaultCourierId, separateShift: false };
      const logged = await sameDayEntries(handle.db, day.courierId, day.date);
      if (logged.length > 0) {
        setSameDay({ day, logged });
        return null;
      }
      return logDay(handle, day, pay!.cards);
    },
    onSuccess: (entry, { reset }) => {
      if (entry === null) return;
      reset(emptyForm());
      showSaved(entryMessages.saved);
    },
    failure: saveFailureMessage,
  });
  const headingId = useId();

  async function saveAsShift() {
    if (!sameDay || !pay) return;
    const { day } = sameDay;
    setSameDay(null);
    try {
      await logDay(handle, { ...day, separateShift: true }, pay.cards);
      form.reset(emptyForm());
      showSaved(entryMessages.savedShift);
    } catch (error) {
      form.fail(saveFailureMessage(error));
    }
  }

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
          setSameDay(null);
          void form.submit(event);
        }}
        noValidate
      >
        <EntryFields
          form={form.values}
          errors={form.errors}
          onChange={(field, value) => {
            // The notice is about the day as it was typed: a change to it asks again on Save.
            setSameDay(null);
            form.setField(field, value);
          }}
          pay={pay}
          defaultCourierId={defaultCourierId}
        />
        {sameDay ? (
          <SameDayNotice
            date={sameDay.day.date}
            courierName={pay && pay.couriers.length > 1 ? (pay.couriers.find((c) => c.id === sameDay.day.courierId)?.name ?? null) : null}
            logged={sameDay.logged}
            onShift={() => void saveAsShift()}
            onCancel={() => setSameDay(null)}
          />
        ) : null}
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
