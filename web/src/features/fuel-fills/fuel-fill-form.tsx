import { useId, useState } from 'react';
import { FormActions } from '@/components/form-actions';
import { FormAlert } from '@/components/form-alert';
import { SelectField, TextField } from '@/components/text-field';
import { RecordVehicleField } from '@/components/vehicle-field';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useRefusedFields } from '@/lib/sync-react/use-refused-fields';
import { useForm } from '@/lib/use-form';
import type { LocalFuelFill, LocalVehicle } from '@/sync/types';
import { saveFuelFill, saveFuelFillAsExpense } from './commands';
import { useLoggedAsExpense } from './use-fuel-fills';
import { blankFuelFillForm, fuelFillFormOf, fuelFillFormSchema, MAX_NOTE_CHARS, UNIT_WORDS, type FuelUnit } from './fuel-fill-form-schema';
import recordForm from '@/components/record-form.module.css';
import styles from './fuel.module.css';
import recordList from '@/components/record-list.module.css';

interface FuelFillFormProps {
  /** The vehicles to choose from (live ones, plus an edited fill's deleted vehicle). */
  vehicles: readonly LocalVehicle[];
  /** Where a new fill starts: the vehicle last filled (or the only one) and its unit. */
  start: { vehicleId: string; unit: FuelUnit };
  editing?: LocalFuelFill | undefined;
  today: string;
  onSaved: (fill: LocalFuelFill) => void;
  onCancel: () => void;
}

/** One fill: the day, the vehicle, litres or kWh, the cost, the odometer if read, full or not. */
export function FuelFillForm({ vehicles, start, editing, today, onSaved, onCancel }: FuelFillFormProps) {
  const handle = useSyncHandle();
  const refused = useRefusedFields(editing?.id);
  const logged = useLoggedAsExpense(editing?.id);
  const [alsoExpense, setAlsoExpense] = useState(false);
  const form = useForm({
    refused,
    schema: fuelFillFormSchema,
    initial: () => (editing ? fuelFillFormOf(editing) : blankFuelFillForm(today, start.vehicleId, start.unit)),
    command: (fill) => (alsoExpense && logged === false ? saveFuelFillAsExpense(handle, fill, editing?.id) : saveFuelFill(handle, fill, editing?.id)),
    onSuccess: (saved) => onSaved(saved),
    failure: () => 'Failed to save the fill',
  });
  const { values, errors, setField: update } = form;
  const headingId = useId();

  return (
    <form className={recordForm.form} aria-labelledby={headingId} onSubmit={(event) => void form.submit(event)} noValidate>
      <h3 id={headingId} className={recordForm.formTitle}>
        {editing ? 'Edit fill' : 'Log a fill'}
      </h3>
      <div className={recordForm.grid}>
        <TextField label="Day" type="date" required value={values.date} error={errors.date} onChange={(e) => update('date', e.target.value)} />
        <RecordVehicleField vehicles={vehicles} value={values.vehicleId} error={errors.vehicleId} onChange={(id) => update('vehicleId', id)} />
        <SelectField label="Fuel or charge" value={values.unit} onChange={(e) => update('unit', e.target.value as FuelUnit)}>
          <option value="litres">Fuel (litres)</option>
          <option value="kWh">Charge (kWh)</option>
        </SelectField>
        <TextField
          label={values.unit === 'litres' ? 'Litres' : 'kWh'}
          inputMode="decimal"
          placeholder="45.67"
          value={values.quantity}
          error={errors.quantity}
          onChange={(e) => update('quantity', e.target.value)}
        />
        <TextField label="Cost (£)" inputMode="decimal" placeholder="68.45" value={values.cost} error={errors.cost} onChange={(e) => update('cost', e.target.value)} />
        <TextField label="Odometer (miles)" optional inputMode="numeric" value={values.odometer} error={errors.odometer} onChange={(e) => update('odometer', e.target.value)} />
      </div>
      <label className={styles.check}>
        <input type="checkbox" checked={values.full} onChange={(e) => update('full', e.target.checked)} />
        {values.unit === 'litres' ? 'Filled the tank to full' : 'Charged to my usual full level'}
      </label>
      <p className={recordList.hint}>Economy needs full fills with an odometer reading; a top-up of a few {UNIT_WORDS[values.unit]} is a part fill.</p>
      <TextField label="Note" optional maxLength={MAX_NOTE_CHARS} value={values.note} error={errors.note} onChange={(e) => update('note', e.target.value)} />
      {logged ? (
        <p className={recordList.hint}>Logged as a Fuel expense: edit or delete that under Expenses.</p>
      ) : logged === false ? (
        <>
          <label className={styles.check}>
            <input type="checkbox" checked={alsoExpense} onChange={(e) => setAlsoExpense(e.target.checked)} />
            Also log as a Fuel expense
          </label>
          {alsoExpense ? <p className={recordList.hint}>Once, with this cost: the expense is what the tax year counts, never the fill (a free charge is no expense).</p> : null}
        </>
      ) : null}
      {form.failure ? <FormAlert message={form.failure} /> : null}
      <FormActions submitLabel={editing ? 'Save fill' : 'Log fill'} submitting={form.submitting} onCancel={onCancel} />
    </form>
  );
}
