import { useId } from 'react';
import { FormActions } from '@/components/form-actions';
import { FormAlert } from '@/components/form-alert';
import { SelectField, TextField } from '@/components/text-field';
import { useSyncHandle } from '@/lib/sync/use-sync';
import { useForm } from '@/lib/use-form';
import type { DeductionRepeat, LocalDeduction } from '@/sync/types';
import { saveDeduction } from './commands';
import { blankDeductionForm, deductionFormOf, deductionFormSchema, MAX_LABEL_CHARS } from './deduction-form-schema';
import recordForm from '@/components/record-form.module.css';

interface DeductionFormProps {
  courierId: string;
  editing?: LocalDeduction | undefined;
  today: string;
  onSaved: () => void;
  onCancel: () => void;
}

/** What a courier takes off the statement, and when. */
export function DeductionForm({ courierId, editing, today, onSaved, onCancel }: DeductionFormProps) {
  const handle = useSyncHandle();
  const form = useForm({
    schema: deductionFormSchema,
    initial: () => (editing ? deductionFormOf(editing) : blankDeductionForm(today)),
    command: (fields) => saveDeduction(handle, { ...fields, courierId }, editing?.id),
    onSuccess: () => onSaved(),
    failure: () => 'Failed to save the deduction',
  });
  const { values, errors, setField: update } = form;
  const headingId = useId();
  const once = values.repeat === 'once';

  return (
    <form className={recordForm.form} aria-labelledby={headingId} onSubmit={(event) => void form.submit(event)} noValidate>
      <h4 id={headingId} className={recordForm.formTitle}>
        {editing ? `Edit ${editing.label}` : 'Add a deduction'}
      </h4>
      <div className={recordForm.grid}>
        <TextField
          label="What for"
          required
          maxLength={MAX_LABEL_CHARS}
          placeholder="e.g. Van hire"
          value={values.label}
          error={errors.label}
          onChange={(e) => update('label', e.target.value)}
        />
        <TextField
          label="Amount (£)"
          required
          inputMode="decimal"
          placeholder="0.00"
          value={values.amount}
          error={errors.amount}
          onChange={(e) => update('amount', e.target.value)}
        />
        <SelectField label="Repeats" value={values.repeat} onChange={(e) => update('repeat', e.target.value as DeductionRepeat)}>
          <option value="once">Once</option>
          <option value="weekly">Every week</option>
          <option value="monthly">Every month</option>
        </SelectField>
        <TextField
          label={once ? 'Charged on' : 'First charge'}
          type="date"
          required
          value={values.from}
          error={errors.from}
          onChange={(e) => update('from', e.target.value)}
        />
        {once ? null : <TextField label="Last charge" optional type="date" value={values.to} error={errors.to} onChange={(e) => update('to', e.target.value)} />}
      </div>
      {form.failure ? <FormAlert message={form.failure} /> : null}
      <FormActions submitLabel={editing ? 'Save deduction' : 'Add deduction'} submitting={form.submitting} onCancel={onCancel} />
    </form>
  );
}
