import { useId, useMemo } from 'react';
import { FormActions } from '@/components/form-actions';
import { FormAlert } from '@/components/form-alert';
import { SelectField, TextField } from '@/components/text-field';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useRefusedFields } from '@/lib/sync-react/use-refused-fields';
import { useForm } from '@/lib/use-form';
import { formatShortDate } from '@/lib/format';
import type { LocalVehicle, VehicleMethod, VehicleType } from '@/sync/types';
import type { VehicleFix } from '@/core/mtd/vehicle-fixed';
import { saveVehicle } from './commands';
import { blankVehicleForm, MAX_COMMUTE_MILES, MAX_VEHICLE_NAME_CHARS, vehicleFormOf, vehicleFormSchema, vehicleMessages } from './vehicle-form-schema';
import recordForm from '@/components/record-form.module.css';
import recordList from '@/components/record-list.module.css';

interface VehicleFormProps {
  editing?: LocalVehicle | undefined;
  /** The method the vehicle must keep (used in an earlier tax year), or null. */
  kept: VehicleMethod | null;
  /** The sent update that fixed the vehicle's method: the form no longer offers to change it. */
  fixedBy?: VehicleFix | undefined;
  onSaved: (vehicle: LocalVehicle) => void;
  onCancel: () => void;
}

/** A vehicle the driver works with, and how its costs are claimed. */
export function VehicleForm({ editing, kept: keptEarlier, fixedBy, onSaved, onCancel }: VehicleFormProps) {
  const handle = useSyncHandle();
  const kept = fixedBy && editing ? editing.method : keptEarlier;
  const schema = useMemo(() => vehicleFormSchema(kept, fixedBy ? vehicleMessages.methodFixed : vehicleMessages.methodKept), [kept, fixedBy]);
  const refused = useRefusedFields(editing?.id);
  const form = useForm({
    refused,
    schema,
    initial: () => (editing ? vehicleFormOf(editing) : blankVehicleForm()),
    command: (vehicle) => saveVehicle(handle, vehicle, editing?.id),
    onSuccess: (saved) => onSaved(saved),
    failure: () => 'Failed to save the vehicle',
  });
  const { values, errors, setField: update } = form;
  const headingId = useId();
  const bicycle = values.type === 'bicycle';

  return (
    <form className={recordForm.form} aria-labelledby={headingId} onSubmit={(event) => void form.submit(event)} noValidate>
      <h3 id={headingId} className={recordForm.formTitle}>
        {editing ? `Edit ${editing.name}` : 'Add a vehicle'}
      </h3>
      <div className={recordForm.grid}>
        <TextField
          label="Name"
          required
          maxLength={MAX_VEHICLE_NAME_CHARS}
          placeholder="e.g. Transit van"
          value={values.name}
          error={errors.name}
          onChange={(e) => update('name', e.target.value)}
        />
        <SelectField label="Type" value={values.type} error={errors.type} onChange={(e) => update('type', e.target.value as VehicleType)}>
          <option value="carVan">Car or van</option>
          <option value="motorcycle">Motorcycle</option>
          <option value="bicycle">Bicycle</option>
        </SelectField>
        <SelectField
          label="How its costs are claimed"
          value={bicycle ? 'actualCosts' : values.method}
          disabled={bicycle || fixedBy !== undefined}
          error={errors.method}
          onChange={(e) => update('method', e.target.value as VehicleMethod)}
        >
          <option value="flatRate">Flat rate per business mile</option>
          <option value="actualCosts">Actual costs</option>
        </SelectField>
        <TextField
          label="Commute, home to depot (miles each way)"
          optional
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_COMMUTE_MILES}
          step={1}
          value={values.commuteMiles}
          error={errors.commuteMiles}
          onChange={(e) => update('commuteMiles', e.target.value)}
        />
      </div>
      <p className={recordList.hint}>
        <span>
          {bicycle
            ? vehicleMessages.bicycle
            : 'The flat rate covers fuel, repairs, insurance and tax. Actual costs claims those bills times the business share of the miles in this log.'}
        </span>{' '}
        <span>The commute is taken off twice a day when a day’s odometer readings become business miles: home to depot and back is not business travel.</span>{' '}
        <span>
          {fixedBy
            ? `Its method is fixed: the Q${fixedBy.quarter} ${fixedBy.year.replace('-', '–')} update you sent on ${formatShortDate(fixedBy.sentOn)} claimed it.`
            : kept
              ? 'Its method is kept: it has miles in an earlier tax year.'
              : 'A vehicle keeps its method once it has miles in an earlier tax year or a quarterly update you send claims it.'}
        </span>
      </p>
      {form.failure ? <FormAlert message={form.failure} /> : null}
      <FormActions submitLabel={editing ? 'Save vehicle' : 'Add vehicle'} submitting={form.submitting} onCancel={onCancel} />
    </form>
  );
}
