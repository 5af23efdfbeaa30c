import { useId } from 'react';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { TextField } from '@/components/text-field';
import { useSyncHandle } from '@/lib/sync/use-sync';
import { useForm } from '@/lib/use-form';
import type { LocalInvoice } from '@/sync/types';
import { saveCheck } from './commands';
import { blankInvoiceForm, invoiceFormOf, invoiceFormSchema, MAX_REFERENCE_CHARS } from './invoice-form-schema';
import panel from '@/components/panel.module.css';
import styles from './invoices.module.css';

interface InvoiceFormProps {
  /** The check being edited, or undefined for a new one. */
  editing?: LocalInvoice | undefined;
  /** The Sunday a new check's period starts on (last week). */
  lastWeekStart: string;
  onSaved: (check: LocalInvoice) => void;
  onCancel?: () => void;
}

/** What the courier's statement says for a period; saved on the device and synced. */
export function InvoiceForm({ editing, lastWeekStart, onSaved, onCancel }: InvoiceFormProps) {
  const handle = useSyncHandle();
  const form = useForm({
    schema: invoiceFormSchema,
    initial: () => (editing ? invoiceFormOf(editing) : blankInvoiceForm(lastWeekStart)),
    command: (check) => saveCheck(handle, check, editing?.id),
    onSuccess: (saved, { reset }) => {
      if (!editing) reset(blankInvoiceForm(lastWeekStart));
      onSaved(saved);
    },
    failure: () => 'Failed to save the invoice check',
  });
  const { values, errors, setField: update } = form;
  const headingId = useId();

  return (
    <form className={panel.panel} aria-labelledby={headingId} onSubmit={(event) => void form.submit(event)} noValidate>
      <h2 id={headingId} className={panel.panelTitle}>
        {editing ? 'Edit invoice check' : 'Check an invoice'}
      </h2>
      {editing ? null : <p className={styles.hint}>Enter what your statement says. Your log works out what you should have been paid.</p>}
      <div className={styles.formGrid}>
        <TextField label="First day" type="date" required value={values.periodStart} error={errors.periodStart} onChange={(e) => update('periodStart', e.target.value)} />
        <TextField label="Last day" type="date" required value={values.periodEnd} error={errors.periodEnd} onChange={(e) => update('periodEnd', e.target.value)} />
        <TextField
          label="Amount paid (£)"
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          required
          placeholder="0.00"
          value={values.paid}
          error={errors.paid}
          onChange={(e) => update('paid', e.target.value)}
        />
        <TextField
          label="Stops on statement"
          optional
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          value={values.stops}
          error={errors.stops}
          onChange={(e) => update('stops', e.target.value)}
        />
      </div>
      <TextField
        label="Reference"
        optional
        maxLength={MAX_REFERENCE_CHARS}
        placeholder="e.g. statement number"
        value={values.reference}
        error={errors.reference}
        onChange={(e) => update('reference', e.target.value)}
      />
      {form.failure ? <FormAlert message={form.failure} /> : null}
      <div className={styles.editorActions}>
        {onCancel ? (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" disabled={form.submitting}>
          {form.submitting ? 'Saving...' : editing ? 'Save changes' : 'Check invoice'}
        </Button>
      </div>
    </form>
  );
}
