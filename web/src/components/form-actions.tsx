import { Button } from './button';
import styles from './form-actions.module.css';

interface FormActionsProps {
  /** The submit button's words, e.g. "Save courier"; it reads "Saving..." while the save runs. */
  submitLabel: string;
  submitting: boolean;
  onCancel: () => void;
  /** Keeps the submit off for another reason (say, what the form needs is still loading). */
  disabled?: boolean;
}

/** An inline form's Cancel and submit buttons, at its end on the right. */
export function FormActions({ submitLabel, submitting, onCancel, disabled = false }: FormActionsProps) {
  return (
    <div className={styles.actions}>
      <Button variant="ghost" onClick={onCancel} disabled={submitting}>
        Cancel
      </Button>
      <Button type="submit" disabled={submitting || disabled}>
        {submitting ? 'Saving...' : submitLabel}
      </Button>
    </div>
  );
}
