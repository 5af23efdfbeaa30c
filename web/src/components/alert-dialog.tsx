import { useEffect, useId, useRef } from 'react';
import { Button } from './button';
import styles from './alert-dialog.module.css';

/**
 * An in-app replacement for window.alert: modal, announced as an alert dialog, closed with OK
 * or Escape, and focus goes back where it was. `message` null means closed.
 */
export function AlertDialog({ message, onClose }: { message: string | null; onClose: () => void }) {
  if (message === null) return null;
  return <OpenAlertDialog message={message} onClose={onClose} />;
}

function OpenAlertDialog({ message, onClose }: { message: string; onClose: () => void }) {
  const messageId = useId();
  const okRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    okRef.current?.focus();
    return () => previous?.focus();
  }, []);

  return (
    <div className={styles.backdrop}>
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={messageId}
        className={styles.dialog}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose();
          // One control only: keep focus inside the modal.
          if (event.key === 'Tab') {
            event.preventDefault();
            okRef.current?.focus();
          }
        }}
      >
        <p id={messageId} className={styles.message}>
          {message}
        </p>
        <div className={styles.actions}>
          <Button ref={okRef} onClick={onClose}>
            OK
          </Button>
        </div>
      </div>
    </div>
  );
}
