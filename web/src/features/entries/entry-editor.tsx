import { useId, useState } from 'react';
import { FormActions } from '@/components/form-actions';
import { FormAlert } from '@/components/form-alert';
import { penceToPounds } from '@/core/money/money';
import type { PaySetup } from '@/lib/sync-react/use-pay-setup';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useRefusedFields } from '@/lib/sync-react/use-refused-fields';
import { useForm } from '@/lib/use-form';
import type { LocalEntry } from '@/sync/types';
import { editDay, sameDayEntries, type DayOdometer } from './commands';
import type { DayDraft } from '@/core/pay/day-pricing';
import { EntryFields } from './entry-fields';
import { formPaidFields, needsOf } from './form-card';
import { bandFieldsOf, entryFormSchema, saveFailureMessage, type EntryFormInput } from './entry-form-schema';
import { OdometerFields } from './odometer-fields';
import { validateOdometer, type OdometerErrors } from './odometer-schema';
import { SameDayNotice } from './same-day-notice';
import { useDayOdometer } from './use-day-odometer';
import styles from './entries.module.css';

function formOf(entry: LocalEntry): EntryFormInput {
  return {
    date: entry.date,
    stops: entry.stops === 0 && entry.parcels !== null ? '' : String(entry.stops),
    extra: entry.extra === 0 ? '' : penceToPounds(entry.extra),
    notes: entry.notes,
    courierId: entry.courierId,
    parcels: entry.parcels === null ? '' : String(entry.parcels),
    collections: entry.collections === null ? '' : String(entry.collections),
    failed: entry.failed === null ? '' : String(entry.failed),
    startTime: entry.startTime ?? '',
    finishTime: entry.finishTime ?? '',
    ...bandFieldsOf(entry.bands),
  };
}

interface EntryEditorProps {
  entry: LocalEntry;
  pay: PaySetup | undefined;
  onDone: (saved: boolean) => void;
}

/**
 * Edits a logged day in place. Its total is worked out again only when something that decides
 * pay changes, and then with the card in force on its date (day-pricing.ts); the change syncs
 * like any other. Moved onto a courier's date that already has a day, it asks first whether it
 * is a separate shift there; left on its own day, it stays what it was.
 */
export function EntryEditor({ entry, pay, onDone }: EntryEditorProps) {
  const handle = useSyncHandle();
  const [sameDay, setSameDay] = useState<{ day: DayDraft; logged: LocalEntry[]; odometer: DayOdometer | null } | null>(null);
  const [odometerErrors, setOdometerErrors] = useState<OdometerErrors>({});
  const refused = useRefusedFields(entry.id);
  const form = useForm({
    refused,
    schema: (values) => entryFormSchema(needsOf(formPaidFields(pay, values, entry.courierId))),
    initial: () => formOf(entry),
    ready: pay !== undefined,
    command: async (typed): Promise<LocalEntry | null> => {
      const miles = validateOdometer(odometer.typedValues);
      setOdometerErrors(miles.ok ? {} : miles.errors);
      if (!miles.ok) return null;
      const moved = typed.date !== entry.date || typed.courierId !== entry.courierId;
      const day: DayDraft = { ...typed, separateShift: moved ? false : entry.separateShift };
      if (moved) {
        const logged = await sameDayEntries(handle.db, day.courierId, day.date, entry.id);
        if (logged.length > 0) {
          setSameDay({ day, logged, odometer: miles.value });
          return null;
        }
      }
      return editDay(handle, entry.id, entry, day, pay!.cards, miles.value);
    },
    onSuccess: (saved) => {
      if (saved !== null) onDone(true);
    },
    failure: saveFailureMessage,
  });
  const headingId = useId();
  // The day's own mileage record prefills the readings: saving again updates that one record.
  const odometer = useDayOdometer(/^\d{4}-\d{2}-\d{2}$/.test(form.values.date) ? form.values.date : entry.date);

  async function saveAsShift() {
    if (!sameDay || !pay) return;
    const { day, odometer: miles } = sameDay;
    setSameDay(null);
    try {
      await editDay(handle, entry.id, entry, { ...day, separateShift: true }, pay.cards, miles);
      onDone(true);
    } catch (error) {
      form.fail(saveFailureMessage(error));
    }
  }

  return (
    <form className={styles.editor} aria-labelledby={headingId} onSubmit={(event) => void form.submit(event)} noValidate>
      <h3 id={headingId} className={styles.editorTitle}>
        Edit entry
      </h3>
      <EntryFields
        form={form.values}
        errors={form.errors}
        pay={pay}
        defaultCourierId={entry.courierId}
        saved={entry}
        moreDetails={odometer.vehicles.length > 0 ? <OdometerFields odometer={odometer} errors={odometerErrors} /> : undefined}
        onChange={(field, value) => {
          setSameDay(null);
          form.setField(field, value);
        }}
      />
      {sameDay ? (
        <SameDayNotice
          date={sameDay.day.date}
          courierName={pay && pay.couriers.length > 1 ? (pay.couriers.find((c) => c.id === sameDay.day.courierId)?.name ?? null) : null}
          logged={sameDay.logged}
          offerOpen={false}
          shiftLabel="Save as a separate shift"
          onShift={() => void saveAsShift()}
          onCancel={() => setSameDay(null)}
        />
      ) : null}
      {form.failure ? <FormAlert message={form.failure} /> : null}
      <FormActions submitLabel="Save changes" submitting={form.submitting} disabled={!pay} onCancel={() => onDone(false)} />
    </form>
  );
}
