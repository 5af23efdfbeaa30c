import { CircleAlert } from 'lucide-react';
import styles from './form-alert.module.css';

/** A form-level error. role="alert" makes screen readers announce it as soon as it appears. */
export function FormAlert({ message, id }: { message: string | null; id?: string | undefined }) {
  if (!message) return null;
  return (
    <div role="alert" id={id} className={styles.alert}>
      <CircleAlert aria-hidden="true" />
      <p>{message}</p>
    </div>
  );
}
