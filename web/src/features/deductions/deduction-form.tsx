import { useId, useMemo } from 'react';
import { ChosenCategory, ExpenseCategoryOptions } from '@/components/expense-category-options';
import { FormActions } from '@/components/form-actions';
import { FormAlert } from '@/components/form-alert';
import { SelectField, TextField } from '@/components/text-field';
import { VehicleField } from '@/components/vehicle-field';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useRefusedFields } from '@/lib/sync-react/use-refused-fields';
import { useForm } from '@/lib/use-form';
import { asksForVehicle, NO_VEHICLE } from '@/core/tax/vehicle-choice';
import type { DeductionRepeat, ExpenseCategory, LocalDeduction, LocalVehicle } from '@/sync/types';
import { saveDeduction } from './commands';
import { blankDeductionForm, deductionFormOf, deductionFormSchema, MAX_LABEL_CHARS } from './deduction-form-schema';
import recordForm from '@/components/record-form.module.css';

interface DeductionFormProps {
  courierId: string;
  courierName: string;
  editing?: LocalDeduction | undefined;
  /** The driver's live vehicles: a vehicle cost says which one it is for. */
  vehicles: readonly LocalVehicle[];
  today: string;
  onSaved: () => void;
  onCancel: () => void;
}

/** What a courier takes off the statement, what it is for (and for a vehicle cost, which vehicle), and when. */
export function DeductionForm({ courierId, courierName, editing, vehicles, today, onSaved, onCancel }: DeductionFormProps) {
  const handle = useSyncHandle();
  const hasVehicles = vehicles.length > 0;
  const schema = useMemo(() => deductionFormSchema(hasVehicles), [hasVehicles]);
  const refused = useRefusedFields(editing?.id);
  const form = useForm({
    refused,
    schema,
    initial: () => (editing ? deductionFormOf(editing) : blankDeductionForm(today)),
    command: (fields) => saveDeduction(handle, { ...fields, courierId }, editing?.id),
    onSuccess: () => onSaved(),
    failure: () => 'Failed to save the deduction',
  });
  const { values, errors, setField: update } = form;
  const headingId = useId();
  const once = values.repeat === 'once';
  const askVehicle = asksForVehicle(values.purpose, hasVehicles);
  // Shown when it must be answered, or to take off a vehicle another purpose had.
  const showVehicle = askVehicle || (values.vehicleId !== '' && values.vehicleId !== NO_VEHICLE);

  return (
    <form className={recordForm.form} aria-labelledby={headingId} onSubmit={(event) => void form.submit(event)} noValidate>
      <h4 id={headingId} className={recordForm.formTitle}>
        {editing ? `Edit ${editing.label}` : 'Add a deduction'}
        {' '}
        <span className="visually-hidden">for {courierName}</span>
      </h4>
      <div className={recordForm.grid}>
        <div className={recordForm.wide}>
          <SelectField label="What it is for" value={values.purpose} error={errors.purpose} onChange={(e) => update('purpose', e.target.value as ExpenseCategory | '')}>
            <ExpenseCategoryOptions />
          </SelectField>
          <ChosenCategory category={values.purpose} />
        </div>
        {showVehicle ? <VehicleField vehicles={vehicles} value={values.vehicleId} asked={askVehicle} error={errors.vehicleId} onChange={(value) => update('vehicleId', value)} /> : null}
        <TextField
          label="Name on the statement"
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
