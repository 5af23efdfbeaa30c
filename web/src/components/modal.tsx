import { useEffect, type ReactNode, type RefObject } from 'react';
import styles from './alert-dialog.module.css';

interface ModalProps {
  labelledBy: string;
  describedBy?: string;
  onEscape: () => void;
  /** The dialog's controls in Tab order; the first gets focus when it opens. */
  controls: RefObject<HTMLButtonElement | null>[];
  /** Extra class for the dialog box (a picture viewer is wider than a question). */
  className?: string;
  children: ReactNode;
}

/**
 * What every modal here shares: announced as an alert dialog, focus moves in on open and
 * back where it was on close, Escape dismisses, and Tab cycles inside the dialog.
 */
export function Modal({ labelledBy, describedBy, onEscape, controls, className, children }: ModalProps) {
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    controls[0]?.current?.focus();
    return () => previous?.focus();
    // Focus moves once, when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className={styles.backdrop}>
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        className={className ? `${styles.dialog} ${className}` : styles.dialog}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onEscape();
          if (event.key !== 'Tab') return;
          event.preventDefault();
          const index = controls.findIndex((control) => control.current === document.activeElement);
          const step = event.shiftKey ? -1 : 1;
          controls[(index + step + controls.length) % controls.length]?.current?.focus();
        }}
      >
        {children}
      </div>
    </div>
  );
}
