import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/button';
import { EntryFields } from '@/components/entry-fields';
import { FormAlert } from '@/components/form-alert';
import { saveFailureMessage, validateEntryForm, type EntryFormErrors, type EntryFormInput } from '@/lib/entry-form';
import { penceToPounds } from '@/lib/money';
import { payFor, type PayTier } from '@/lib/pay';
import { useSyncHandle } from '@/lib/sync/use-sync';
import { saveEntry } from '@/sync/commands';
import type { LocalEntry } from '@/sync/types';
import styles from './history-page.module.css';

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
  const [form, setForm] = useState(() => formOf(entry));
  const [errors, setErrors] = useState<EntryFormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const headingId = useId();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || !tiers) return;
    const result = validateEntryForm(form);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    const { date, stops, extra, notes } = result.value;
    setSaving(true);
    try {
      await saveEntry(handle.db, { date, stops, extra, notes, total: payFor(tiers, stops) + extra }, entry.id);
      handle.requestSync();
      onDone(true);
    } catch (error) {
      setFailure(saveFailureMessage(error));
      setSaving(false);
    }
  }

  return (
    <form className={styles.editor} aria-labelledby={headingId} onSubmit={(event) => void onSubmit(event)} noValidate>
      <h3 id={headingId} className={styles.editorTitle}>
        Edit entry
      </h3>
      <EntryFields
        form={form}
        errors={errors}
        tiers={tiers}
        onChange={(field, value) => {
          setForm((current) => ({ ...current, [field]: value }));
          setErrors((current) => ({ ...current, [field]: undefined }));
        }}
      />
      {failure ? <FormAlert message={failure} /> : null}
      <div className={styles.editorActions}>
        <Button variant="ghost" onClick={() => onDone(false)}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving || !tiers}>
          {saving ? 'Saving...' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}
