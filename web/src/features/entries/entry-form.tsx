import { CircleAlert, CircleCheck, CloudOff, RefreshCw, type LucideIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { Spinner } from '@/components/spinner';
import { SUCCESS_MESSAGE_MS, useFlash } from '@/lib/flash';
import type { PaySetup } from '@/lib/sync-react/use-pay-setup';
import { useSyncHandle, useSyncStatus } from '@/lib/sync-react/use-sync';
import { useForm } from '@/lib/use-form';
import { localDay } from '@/lib/week';
import { shortStatusText, type SyncStatus } from '@/sync/status';
import type { LocalEntry } from '@/sync/types';
import { logDay, sameDayEntries, type DayOdometer } from './commands';
import type { DayDraft } from '@/core/pay/day-pricing';
import { EntryFields } from './entry-fields';
import { likelyCourierId } from './likely-courier';
import { OdometerFields } from './odometer-fields';
import { validateOdometer, type OdometerErrors } from './odometer-schema';
import { shiftTimes } from './shift-clock';
import { ShiftClockBar } from './shift-clock-bar';
import { useDayOdometer } from './use-day-odometer';
import { useShiftClock } from './use-shift-clock';
import { formPaidFields, needsOf } from './form-card';
import { emptyEntryForm, entryFormSchema, entryMessages, saveFailureMessage } from './entry-form-schema';
import { SameDayNotice } from './same-day-notice';
import styles from './entry-form.module.css';

export { SUCCESS_MESSAGE_MS };

interface EntryFormProps {
  /** Couriers and their cards: the card in force prices the day. Undefined while being read. */
  pay: PaySetup | undefined;
  /** The driver's days, for the most likely courier. Undefined while being read. */
  entries: readonly LocalEntry[] | undefined;
  /** The card's heading. */
  title?: string;
  /** The id of a heading outside that names the form (a dialog's title): the card then has none of its own. */
  labelledBy?: string;
  /** The date a new form starts on (today unless said). */
  initialDate?: string | undefined;
  /** Show the shift clock, whose times fill the form (the dashboard's and the "+" form). */
  withShiftClock?: boolean;
  /** After a day is stored. */
  onSaved?: (entry: LocalEntry) => void;
}

/**
 * Log New Entry. "Saved" means stored on this device (with its outbox item); reaching the
 * server is the sync engine's job, shown by the indicator here and on the entry itself.
 * The card in force for the day's courier on its date prices it, and the total is fixed when
 * saved. Saving waits until the couriers and cards are read, so no day is priced by a card
 * that was simply not loaded yet.
 */
export function EntryForm({ pay, entries, title = 'Log New Entry', labelledBy, initialDate, withShiftClock = false, onSaved }: EntryFormProps) {
  const handle = useSyncHandle();
  const { userId } = handle.db;
  const [saved, showSaved, clearSaved] = useFlash();
  // A day for this courier and date is already logged: the driver chooses before anything is saved.
  const [sameDay, setSameDay] = useState<{ day: DayDraft; logged: LocalEntry[]; odometer: DayOdometer | null } | null>(null);
  const [odometerErrors, setOdometerErrors] = useState<OdometerErrors>({});
  const clock = useShiftClock(userId);
  const ready = pay !== undefined && entries !== undefined;
  // The courier is left unchosen (''): the most likely one for the form's date, read when it is saved.
  const emptyForm = () => emptyEntryForm(initialDate ?? localDay(new Date()));
  const [dateForCourier, setDateForCourier] = useState(() => initialDate ?? localDay(new Date()));
  const defaultCourierId = ready ? likelyCourierId(entries, pay.couriers, userId, dateForCourier) : userId;
  const odometer = useDayOdometer(dateForCourier);

  /** After a day is stored: a fresh form, the shift it used forgotten. */
  function stored(entry: LocalEntry, message: string, reset: (values: ReturnType<typeof emptyForm>) => void) {
    reset(emptyForm());
    setDateForCourier(initialDate ?? localDay(new Date()));
    odometer.reset();
    if (withShiftClock && clock.shift && clock.shift.endedAt !== null && shiftTimes(clock.shift).date === entry.date) clock.discard();
    showSaved(message);
    onSaved?.(entry);
  }

  const form = useForm({
    schema: (values) => entryFormSchema(needsOf(formPaidFields(pay, values, defaultCourierId))),
    initial: emptyForm,
    ready,
    command: async (typed): Promise<LocalEntry | null> => {
      const miles = validateOdometer(odometer.typedValues);
      setOdometerErrors(miles.ok ? {} : miles.errors);
      if (!miles.ok) return null;
      const day: DayDraft = { ...typed, courierId: typed.courierId || defaultCourierId, separateShift: false };
      const logged = await sameDayEntries(handle.db, day.courierId, day.date);
      if (logged.length > 0) {
        setSameDay({ day, logged, odometer: miles.value });
        return null;
      }
      return logDay(handle, day, pay!.cards, miles.value);
    },
    onSuccess: (entry, { reset }) => {
      if (entry !== null) stored(entry, entryMessages.saved, reset);
    },
    failure: saveFailureMessage,
  });
  const headingId = useId();

  // An ended shift fills the day's date, start and finish once (after a reload too); the
  // driver can still change them before saving.
  const filledFrom = useRef<number | null>(null);
  const { setField } = form;
  useEffect(() => {
    const shift = clock.shift;
    if (!withShiftClock || !shift || shift.endedAt === null || filledFrom.current === shift.endedAt) return;
    filledFrom.current = shift.endedAt;
    const times = shiftTimes(shift);
    setField('date', times.date);
    setDateForCourier(times.date);
    setField('startTime', times.startTime);
    setField('finishTime', times.finishTime ?? '');
  }, [clock.shift, withShiftClock, setField]);

  async function saveAsShift() {
    if (!sameDay || !pay) return;
    const { day, odometer: miles } = sameDay;
    setSameDay(null);
    try {
      const entry = await logDay(handle, { ...day, separateShift: true }, pay.cards, miles);
      stored(entry, entryMessages.savedShift, form.reset);
    } catch (error) {
      form.fail(saveFailureMessage(error));
    }
  }

  return (
    <section className={styles.card} aria-labelledby={labelledBy ?? headingId}>
      {labelledBy && !withShiftClock ? null : (
        <div className={styles.head}>
          {labelledBy ? null : (
            <h2 id={headingId} className={styles.title}>
              {title}
            </h2>
          )}
          {withShiftClock ? <ShiftClockBar clock={clock} /> : null}
        </div>
      )}
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
            if (field === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(value)) setDateForCourier(value);
          }}
          pay={pay}
          defaultCourierId={defaultCourierId}
          moreDetails={odometer.vehicles.length > 0 ? <OdometerFields odometer={odometer} errors={odometerErrors} /> : undefined}
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
