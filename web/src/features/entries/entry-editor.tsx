import { useId } from 'react';
import { FormActions } from '@/components/form-actions';
import { FormAlert } from '@/components/form-alert';
import { penceToPounds } from '@/lib/money';
import type { PaySetup } from '@/lib/sync/use-pay-setup';
import { useSyncHandle } from '@/lib/sync/use-sync';
import { useForm } from '@/lib/use-form';
import type { LocalEntry } from '@/sync/types';
import { editDay } from './commands';
import { EntryFields } from './entry-fields';
import { entryFormSchema, saveFailureMessage, type EntryFormInput } from './entry-form-schema';
import styles from './entries.module.css';

function formOf(entry: LocalEntry): EntryFormInput {
  return {
    date: entry.date,
    stops: String(entry.stops),
    extra: entry.extra === 0 ? '' : penceToPounds(entry.extra),
    notes: entry.notes,
    courierId: entry.courierId,
    parcels: entry.parcels === null ? '' : String(entry.parcels),
    collections: entry.collections === null ? '' : String(entry.collections),
    failed: entry.failed === null ? '' : String(entry.failed),
    startTime: entry.startTime ?? '',
    finishTime: entry.finishTime ?? '',
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
 * like any other.
 */
export function EntryEditor({ entry, pay, onDone }: EntryEditorProps) {
  const handle = useSyncHandle();
  const form = useForm({
    schema: entryFormSchema,
    initial: () => formOf(entry),
    ready: pay !== undefined,
    command: (day) => editDay(handle, entry.id, entry, day, pay!.cards),
    onSuccess: () => onDone(true),
    failure: saveFailureMessage,
  });
  const headingId = useId();

  return (
    <form className={styles.editor} aria-labelledby={headingId} onSubmit={(event) => void form.submit(event)} noValidate>
      <h3 id={headingId} className={styles.editorTitle}>
        Edit entry
      </h3>
      <EntryFields form={form.values} errors={form.errors} pay={pay} defaultCourierId={entry.courierId} saved={entry} onChange={form.setField} />
      {form.failure ? <FormAlert message={form.failure} /> : null}
      <FormActions submitLabel="Save changes" submitting={form.submitting} disabled={!pay} onCancel={() => onDone(false)} />
    </form>
  );
}
