import { useEffect } from 'react';
import { InBottomLayer } from './bottom-layer';
import { Button } from './button';
import styles from './undo-toast.module.css';

/** How long Undo stays on screen: long enough to notice a slip, short enough not to linger. */
export const UNDO_MS = 10_000;

interface UndoToastProps {
  message: string;
  onUndo: () => void;
  onDismiss: () => void;
}

/**
 * "Entry deleted — Undo", in the shell's bottom layer above the sync badge. Announced politely; dismisses itself after UNDO_MS. The deletion
 * has already happened on the device, so closing the toast loses nothing.
 */
export function UndoToast({ message, onUndo, onDismiss }: UndoToastProps) {
  useEffect(() => {
    const timer = setTimeout(onDismiss, UNDO_MS);
    return () => clearTimeout(timer);
  }, [message, onDismiss]);

  return (
    <InBottomLayer>
      <div className={styles.toast} role="status">
        <span className={styles.message}>{message}</span>
        <Button variant="secondary" onClick={onUndo}>
          Undo
        </Button>
        <Button variant="ghost" onClick={onDismiss} aria-label="Dismiss">
          ×
        </Button>
      </div>
    </InBottomLayer>
  );
}
