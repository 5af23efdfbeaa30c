// The days before an unanswered query's reminder (settings `queryReminderDays`, 1–90, 14 unless
// set): one form, on the query page and in Payment Settings, with one check and one save.
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/button';
import { TextField } from '@/components/text-field';
import { readReminderDays } from '@/core/statement-queries/query';
import { saveQueryReminderDays } from '@/lib/sync-react/doc-commands';
import { useSettings } from '@/lib/sync-react/use-profile';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import styles from './reminder-days-form.module.css';

export function ReminderDaysForm() {
  const handle = useSyncHandle();
  const settings = useSettings();
  // What the driver typed, until saved; the stored setting otherwise (it may change on another device).
  const [typed, setTyped] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);
  if (!settings) return null;
  const shown = typed ?? String(settings.queryReminderDays);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const read = readReminderDays(shown);
    if ('error' in read) {
      setError(read.error);
      setSaved(false);
      return;
    }
    setError(undefined);
    await saveQueryReminderDays(handle, read.days);
    setTyped(null);
    setSaved(true);
  };
  return (
    <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate aria-label="Query reminder">
      <div className={styles.row}>
        <TextField
          label="Remind me when a sent query has had no answer for (days)"
          inputMode="numeric"
          value={shown}
          onChange={(e) => {
            setTyped(e.target.value);
            setSaved(false);
          }}
          error={error}
        />
        <Button type="submit" variant="secondary">
          Save days
        </Button>
      </div>
      <p role="status" className={styles.hint}>
        {saved ? 'Saved on this device; it syncs when you are online.' : ''}
      </p>
    </form>
  );
}
