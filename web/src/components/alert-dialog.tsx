import { useId, useRef } from 'react';
import { Button } from './button';
import { Modal } from './modal';
import styles from './alert-dialog.module.css';

/**
 * An in-app replacement for window.alert, closed with OK or Escape. `message` null means
 * closed.
 */
export function AlertDialog({ message, onClose }: { message: string | null; onClose: () => void }) {
  if (message === null) return null;
  return <OpenAlertDialog message={message} onClose={onClose} />;
}

function OpenAlertDialog({ message, onClose }: { message: string; onClose: () => void }) {
  const messageId = useId();
  const okRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal labelledBy={messageId} onEscape={onClose} initialFocus={okRef}>
      <p id={messageId} className={styles.message}>
        {message}
      </p>
      <div className={styles.actions}>
        <Button ref={okRef} onClick={onClose}>
          OK
        </Button>
      </div>
    </Modal>
  );
}
