import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useCallback, useId, useState } from 'react';
import { Button } from '@/components/button';
import { UndoToast } from '@/components/undo-toast';
import { formatPence } from '@/lib/format';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useVehicles } from '@/lib/sync-react/use-vehicles';
import type { LocalDeduction } from '@/sync/types';
import { deleteDeduction, restoreDeduction } from './commands';
import { DeductionForm } from './deduction-form';
import { purposeWords, scheduleWords } from './deduction-words';
import styles from './deductions.module.css';

interface DeductionsViewProps {
  courierId: string;
  /** Said with the section's and forms' names: two couriers open at once must not share them. */
  courierName: string;
  /** The courier's live deductions. */
  deductions: readonly LocalDeduction[];
  today: string;
}

/** A courier's deductions (van hire, admin fees, …): list, add, edit, delete with Undo. */
export function DeductionsView({ courierId, courierName, deductions, today }: DeductionsViewProps) {
  const handle = useSyncHandle();
  const vehicles = useVehicles() ?? [];
  const headingId = useId();
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [deleted, setDeleted] = useState<LocalDeduction | null>(null);
  const dismiss = useCallback(() => setDeleted(null), []);

  async function remove(deduction: LocalDeduction) {
    await deleteDeduction(handle, deduction.id);
    setDeleted(deduction);
  }

  return (
    <section className={styles.deductions} aria-labelledby={headingId}>
      <div className={styles.head}>
        <h3 id={headingId} className={styles.title}>
          Deductions
          {' '}
          <span className="visually-hidden">for {courierName}</span>
        </h3>
        {editing === 'new' ? null : (
          <Button variant="secondary" onClick={() => setEditing('new')}>
            <Plus aria-hidden="true" />
            Add deduction
          </Button>
        )}
      </div>
      {editing === 'new' ? <DeductionForm courierId={courierId} courierName={courierName} vehicles={vehicles} today={today} onSaved={() => setEditing(null)} onCancel={() => setEditing(null)} /> : null}
      {deductions.length === 0 && editing !== 'new' ? <p className={styles.hint}>Nothing comes off this courier’s statements.</p> : null}
      <ul className={styles.list}>
        {deductions.map((deduction) =>
          editing === deduction.id ? (
            <li key={deduction.id}>
              <DeductionForm courierId={courierId} courierName={courierName} editing={deduction} vehicles={vehicles} today={today} onSaved={() => setEditing(null)} onCancel={() => setEditing(null)} />
            </li>
          ) : (
            <li key={deduction.id} className={styles.item}>
              <div className={styles.itemText}>
                <p className={styles.label}>
                  {deduction.label} <span className={styles.amount}>−{formatPence(deduction.amount)}</span>
                </p>
                <p className={styles.schedule}>{scheduleWords(deduction)}</p>
                <p className={styles.schedule} data-unsaid={deduction.purpose === null ? true : undefined}>
                  {purposeWords(deduction, vehicles)}
                </p>
              </div>
              <div className={styles.itemActions}>
                <Button variant="ghost" aria-label={`Edit ${deduction.label}`} onClick={() => setEditing(deduction.id)}>
                  <Pencil aria-hidden="true" />
                </Button>
                <Button variant="ghost" aria-label={`Delete ${deduction.label}`} onClick={() => void remove(deduction)}>
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            </li>
          ),
        )}
      </ul>
      {deleted ? (
        <UndoToast
          message={`${deleted.label} deleted`}
          onUndo={() => {
            const before = deleted;
            setDeleted(null);
            void restoreDeduction(handle, before);
          }}
          onDismiss={dismiss}
        />
      ) : null}
    </section>
  );
}
