import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import styles from './alert-dialog.module.css';

interface ModalProps {
  labelledBy: string;
  describedBy?: string;
  onEscape: () => void;
  /** Gets focus when the dialog opens (a question's safe answer: Cancel, OK, Close). */
  initialFocus: RefObject<HTMLElement | null>;
  /** Extra class for the dialog box (a picture viewer is wider than a question). */
  className?: string;
  /** `dialog` for a form the driver fills in; a question is an `alertdialog` (the default). */
  role?: 'dialog' | 'alertdialog';
  children: ReactNode;
}

/**
 * What every modal here shares, on the browser's own modal `<dialog>`: the page behind is
 * inert (Tab, clicks and screen readers stay in the dialog), it is announced as an alert
 * dialog (or a plain one for a form), Escape dismisses, and focus moves in on open and back where it was on close.
 * The dialog is open exactly while it is mounted; the owner closes it by unmounting it.
 */
export function Modal({ labelledBy, describedBy, onEscape, initialFocus, className, role = 'alertdialog', children }: ModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const element = dialog.current;
    element?.showModal();
    initialFocus.current?.focus();
    return () => {
      element?.close();
      previous?.focus();
    };
    // Opens once, when mounted.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <dialog
      ref={dialog}
      role={role}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      className={className ? `${styles.dialog} ${className}` : styles.dialog}
      onCancel={(event) => {
        // Escape: the owner decides (it unmounts the dialog); the browser does not close it alone.
        event.preventDefault();
        onEscape();
      }}
    >
      {children}
    </dialog>
  );
}
