import { CircleAlert, RotateCcw, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { discardChange, retryChange } from './commands';
import { describeChange, discardWarning } from './parked-text';
import type { ParkedChange } from './use-parked-changes';
import type { OutboxItem } from '@/sync/types';
import styles from './parked-changes.module.css';
import panel from '@/components/panel.module.css';

/** Changes the server would not take: visible, with the reason, until retried or discarded. */
export function ParkedChanges({ changes }: { changes: ParkedChange[] }) {
  const handle = useSyncHandle();
  const headingId = useId();
  const [busy, setBusy] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<ParkedChange | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (changes.length === 0) return null;

  async function run(seq: number, action: () => Promise<void>, failure: string) {
    setBusy(seq);
    setError(null);
    try {
      await action();
    } catch {
      setError(failure);
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className={`${panel.panel} ${styles.parked}`} aria-labelledby={headingId}>
      <h2 id={headingId} className={panel.panelTitle}>
        <CircleAlert aria-hidden="true" />
        Changes not synced ({changes.length})
      </h2>
      <p className={panel.muted}>
        The server did not accept these changes. They are kept on this device: retry them, or discard them.
      </p>
      {error ? (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      ) : null}
      <ul className={styles.parkedList}>
        {changes.map((change) => {
          const { seq } = change.item;
          const label = describeChange(change);
          return (
            <li key={seq} className={styles.parkedItem}>
              <p className={styles.parkedWhat}>{label}</p>
              <RefusalReason item={change.item} />
              <div className={styles.parkedActions}>
                <Button
                  variant="secondary"
                  disabled={busy !== null}
                  aria-label={`Retry: ${label}`}
                  onClick={() => void run(seq, () => retryChange(handle, seq), 'Could not retry the change')}
                >
                  <RotateCcw aria-hidden="true" />
                  Retry
                </Button>
                <Button variant="ghost" disabled={busy !== null} aria-label={`Discard: ${label}`} onClick={() => setConfirming(change)}>
                  <Trash2 aria-hidden="true" />
                  Discard
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
      {confirming ? (
        <ConfirmDialog
          title="Discard this change?"
          message={`${describeChange(confirming)}. ${discardWarning(confirming)}`}
          confirmLabel="Discard"
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const { seq } = confirming.item;
            setConfirming(null);
            void run(seq, () => discardChange(handle, seq), 'Could not discard the change');
          }}
        />
      ) : null}
    </section>
  );
}

/** Why the server refused a change: each problem on its own line when it named the fields, else its one message. */
function RefusalReason({ item }: { item: OutboxItem }) {
  const problems = Object.entries(item.fieldErrors ?? {}).flatMap(([field, messages]) => messages.map((message) => ({ field, message })));
  if (problems.length === 0) return <p className={styles.parkedWhy}>Reason: {item.lastError ?? 'Not accepted by the server'}</p>;
  return (
    <>
      <p className={styles.parkedWhy}>Reason{problems.length > 1 ? 's' : ''}:</p>
      <ul className={styles.parkedFields}>
        {problems.map(({ field, message }) => (
          <li key={`${field}:${message}`} data-field={field}>
            {message}
          </li>
        ))}
      </ul>
    </>
  );
}
