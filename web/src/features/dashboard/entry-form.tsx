import { CircleAlert, CircleCheck, CloudOff, RefreshCw, type LucideIcon } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { Spinner } from '@/components/spinner';
import { EntryFields } from '@/components/entry-fields';
import { SUCCESS_MESSAGE_MS } from '@/lib/flash';
import { payFor, type PayTier } from '@/lib/pay';
import { useSyncHandle, useSyncStatus } from '@/lib/sync/use-sync';
import { localDay } from '@/lib/week';
import { saveEntry } from '@/sync/commands';
import { shortStatusText, type SyncStatus } from '@/sync/status';
import { entryMessages, saveFailureMessage, validateEntryForm, type EntryFormErrors, type EntryFormInput } from '@/lib/entry-form';
import styles from './entry-form.module.css';

export { SUCCESS_MESSAGE_MS };

const emptyForm = (): EntryFormInput => ({ date: localDay(new Date()), stops: '', extra: '', notes: '' });

type Outcome = { kind: 'saved' } | { kind: 'failed'; message: string } | null;

/**
 * Log New Entry. "Saved" means stored on this device (with its outbox item); reaching the
 * server is the sync engine's job, shown by the indicator here and on the entry itself.
 * `tiers` price the day: the entry's total is fixed when it is saved. Undefined while the
 * profile is still being read: saving waits, so no day is priced with the wrong tiers.
 */
export function EntryForm({ tiers }: { tiers: readonly PayTier[] | undefined }) {
  const handle = useSyncHandle();
  const [form, setForm] = useState<EntryFormInput>(emptyForm);
  const [errors, setErrors] = useState<EntryFormErrors>({});
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const headingId = useId();

  useEffect(() => {
    if (outcome?.kind !== 'saved') return;
    const timer = setTimeout(() => setOutcome(null), SUCCESS_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [outcome]);

  function update(field: keyof EntryFormInput, value: string) {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || !tiers) return;
    const result = validateEntryForm(form);
    if (!result.ok) {
      setErrors(result.errors);
      setOutcome(null);
      return;
    }
    const { date, stops, extra, notes } = result.value;
    setSaving(true);
    setOutcome(null);
    try {
      await saveEntry(handle.db, { date, stops, extra, notes, total: payFor(tiers, stops) + extra });
      handle.requestSync();
      setForm(emptyForm());
      setErrors({});
      setOutcome({ kind: 'saved' });
    } catch (error) {
      setOutcome({ kind: 'failed', message: saveFailureMessage(error) });
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className={styles.card} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.title}>
        Log New Entry
      </h2>
      <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate>
        <EntryFields form={form} errors={errors} onChange={update} tiers={tiers} />
        {outcome?.kind === 'failed' ? <FormAlert message={outcome.message} /> : null}
        <div className={styles.actions}>
          <Button type="submit" disabled={saving || !tiers} aria-busy={saving}>
            {saving ? <Spinner size="sm" decorative /> : null}
            {saving ? 'Saving...' : 'Save Entry'}
          </Button>
          <SyncIndicator />
        </div>
        <p role="status" className={styles.saved}>
          {outcome?.kind === 'saved' ? (
            <>
              <CircleCheck aria-hidden="true" />
              {entryMessages.saved}
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
