import { Plus, X } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Modal } from '@/components/modal';
import { usePaySetup } from '@/lib/sync-react/use-pay-setup';
import { EntryForm } from './entry-form';
import { useEntries } from './use-entries';
import styles from './log-day-button.module.css';

/**
 * The "+" on every app screen (issue 26): it opens the day form (the dashboard's, with the shift
 * clock) for any date, in a dialog, and closes once the day is saved. It sits in the header, so
 * it never covers the screen's content, the sync strip or the bottom bar.
 */
export function LogDayButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={styles.plus} aria-label="Log a day" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <Plus aria-hidden="true" />
      </button>
      {open ? <LogDayDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function LogDayDialog({ onClose }: { onClose: () => void }) {
  const pay = usePaySetup();
  const entries = useEntries();
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal labelledBy={titleId} onEscape={onClose} initialFocus={closeRef} className={styles.dialog} role="dialog">
      <div className={styles.top}>
        <h2 id={titleId} className={styles.title}>
          Log a day
        </h2>
        <button ref={closeRef} type="button" className={styles.close} aria-label="Close" onClick={onClose}>
          <X aria-hidden="true" />
        </button>
      </div>
      <EntryForm pay={pay} entries={entries} labelledBy={titleId} withShiftClock onSaved={onClose} />
    </Modal>
  );
}
