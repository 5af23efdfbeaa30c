import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import styles from './text-field.module.css';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** Shown under the input and linked to it, so screen readers read it with the field. */
  error?: string | undefined;
  optional?: boolean;
}

export function TextField({ label, error, optional, ...inputProps }: TextFieldProps) {
  return (
    <Field label={label} error={error} optional={optional}>
      {(a11y) => <input className={styles.input} {...a11y} {...inputProps} />}
    </Field>
  );
}

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  error?: string | undefined;
  optional?: boolean;
}

export function TextAreaField({ label, error, optional, ...textareaProps }: TextAreaFieldProps) {
  return (
    <Field label={label} error={error} optional={optional}>
      {(a11y) => <textarea className={`${styles.input} ${styles.textarea}`} {...a11y} {...textareaProps} />}
    </Field>
  );
}

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  error?: string | undefined;
  optional?: boolean;
}

export function SelectField({ label, error, optional, children, ...selectProps }: SelectFieldProps) {
  return (
    <Field label={label} error={error} optional={optional}>
      {(a11y) => (
        <select className={styles.input} {...a11y} {...selectProps}>
          {children}
        </select>
      )}
    </Field>
  );
}

interface ControlA11y {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

function Field({
  label,
  error,
  optional,
  children,
}: {
  label: string;
  error: string | undefined;
  optional: boolean | undefined;
  children: (a11y: ControlA11y) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
        {optional ? <span className={styles.optional}> (optional)</span> : null}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined })}
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
