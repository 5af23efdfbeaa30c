import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { TextField } from '@/components/text-field';
import { useSyncHandle } from '@/lib/sync/use-sync';
import { saveInvoice } from '@/sync/commands';
import type { LocalInvoice } from '@/sync/types';
import {
  blankInvoiceForm,
  invoiceFormOf,
  MAX_REFERENCE_CHARS,
  validateInvoiceForm,
  type InvoiceFormErrors,
  type InvoiceFormInput,
} from './invoice-form-schema';
import panel from '@/components/panel.module.css';
import styles from './history-page.module.css';

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
  const [form, setForm] = useState<InvoiceFormInput>(() => (editing ? invoiceFormOf(editing) : blankInvoiceForm(lastWeekStart)));
  const [errors, setErrors] = useState<InvoiceFormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const headingId = useId();

  function update(field: keyof InvoiceFormInput, value: string) {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const result = validateInvoiceForm(form);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setSaving(true);
    setFailure(null);
    try {
      const saved = await saveInvoice(handle.db, result.value, editing?.id);
      handle.requestSync();
      if (!editing) setForm(blankInvoiceForm(lastWeekStart));
      onSaved(saved);
    } catch {
      setFailure('Failed to save the invoice check');
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className={panel.panel} aria-labelledby={headingId} onSubmit={(event) => void onSubmit(event)} noValidate>
      <h2 id={headingId} className={panel.panelTitle}>
        {editing ? 'Edit invoice check' : 'Check an invoice'}
      </h2>
      {editing ? null : <p className={styles.hint}>Enter what your statement says. Your log works out what you should have been paid.</p>}
      <div className={styles.formGrid}>
        <TextField label="First day" type="date" required value={form.periodStart} error={errors.periodStart} onChange={(e) => update('periodStart', e.target.value)} />
        <TextField label="Last day" type="date" required value={form.periodEnd} error={errors.periodEnd} onChange={(e) => update('periodEnd', e.target.value)} />
        <TextField
          label="Amount paid (£)"
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          required
          placeholder="0.00"
          value={form.paid}
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
          value={form.stops}
          error={errors.stops}
          onChange={(e) => update('stops', e.target.value)}
        />
      </div>
      <TextField
        label="Reference"
        optional
        maxLength={MAX_REFERENCE_CHARS}
        placeholder="e.g. statement number"
        value={form.reference}
        error={errors.reference}
        onChange={(e) => update('reference', e.target.value)}
      />
      {failure ? <FormAlert message={failure} /> : null}
      <div className={styles.editorActions}>
        {onCancel ? (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : editing ? 'Save changes' : 'Check invoice'}
        </Button>
      </div>
    </form>
  );
}
