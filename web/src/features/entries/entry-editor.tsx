import { useId } from 'react';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { penceToPounds } from '@/lib/money';
import type { PayTier } from '@/lib/pay';
import { useSyncHandle } from '@/lib/sync/use-sync';
import { useForm } from '@/lib/use-form';
import type { LocalEntry } from '@/sync/types';
import { saveDay } from './commands';
import { EntryFields } from './entry-fields';
import { entryFormSchema, saveFailureMessage, type EntryFormInput } from './entry-form-schema';
import styles from './entries.module.css';

function formOf(entry: LocalEntry): EntryFormInput {
  return {
    date: entry.date,
    stops: String(entry.stops),
    extra: entry.extra === 0 ? '' : penceToPounds(entry.extra),
    notes: entry.notes,
  };
}

interface EntryEditorProps {
  entry: LocalEntry;
  tiers: readonly PayTier[] | undefined;
  onDone: (saved: boolean) => void;
}

/**
 * Edits a logged day in place. The total is worked out again from the driver's current tiers
 * (PRODUCT.md: fixed when saved, recomputed when edited), and the change syncs like any other.
 */
export function EntryEditor({ entry, tiers, onDone }: EntryEditorProps) {
  const handle = useSyncHandle();
  const form = useForm({
    schema: entryFormSchema,
    initial: () => formOf(entry),
    ready: tiers !== undefined,
    command: (day) => saveDay(handle, day, tiers!, entry.id),
    onSuccess: () => onDone(true),
    failure: saveFailureMessage,
  });
  const headingId = useId();

  return (
    <form className={styles.editor} aria-labelledby={headingId} onSubmit={(event) => void form.submit(event)} noValidate>
      <h3 id={headingId} className={styles.editorTitle}>
        Edit entry
      </h3>
      <EntryFields form={form.values} errors={form.errors} tiers={tiers} onChange={form.setField} />
      {form.failure ? <FormAlert message={form.failure} /> : null}
      <div className={styles.editorActions}>
        <Button variant="ghost" onClick={() => onDone(false)}>
          Cancel
        </Button>
        <Button type="submit" disabled={form.submitting || !tiers}>
          {form.submitting ? 'Saving...' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}
