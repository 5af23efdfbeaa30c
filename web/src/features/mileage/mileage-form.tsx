import { useId } from 'react';
import { FormActions } from '@/components/form-actions';
import { FormAlert } from '@/components/form-alert';
import { SelectField, TextField } from '@/components/text-field';
import { RecordVehicleField } from '@/components/vehicle-field';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useRefusedFields } from '@/lib/sync-react/use-refused-fields';
import { useForm } from '@/lib/use-form';
import type { CourierContent, LocalMileage, LocalVehicle } from '@/sync/types';
import { saveMileage } from './commands';
import { blankMileageForm, defaultBusinessMiles, MAX_NOTE_CHARS, mileageFormOf, mileageFormSchema, odometerSpan, type MilesFrom } from './mileage-form-schema';
import { milesWords } from './mileage-words';
import recordForm from '@/components/record-form.module.css';
import styles from './mileage.module.css';
import recordList from '@/components/record-list.module.css';

interface MileageFormProps {
  /** The vehicles to choose from (live ones, plus an edited record's deleted vehicle). */
  vehicles: readonly LocalVehicle[];
  couriers: readonly (CourierContent & { id: string })[];
  /** The vehicle a new record starts on: the last one used. */
  lastVehicleId: string;
  editing?: LocalMileage | undefined;
  today: string;
  onSaved: (record: LocalMileage) => void;
  onCancel: () => void;
}

/** One day's driving in one vehicle: odometer readings or typed miles, split into business and commuting. */
export function MileageForm({ vehicles, couriers, lastVehicleId, editing, today, onSaved, onCancel }: MileageFormProps) {
  const handle = useSyncHandle();
  const refused = useRefusedFields(editing?.id);
  const form = useForm({
    refused,
    schema: mileageFormSchema,
    initial: () => (editing ? mileageFormOf(editing) : blankMileageForm(today, lastVehicleId)),
    command: (record) => saveMileage(handle, record, editing?.id),
    onSuccess: (saved) => onSaved(saved),
    failure: () => 'Failed to save the mileage',
  });
  const { values, errors, setField: update } = form;
  const headingId = useId();
  const odometer = values.milesFrom === 'odometer';
  const span = odometerSpan(values);
  const business = defaultBusinessMiles(values);

  return (
    <form className={recordForm.form} aria-labelledby={headingId} onSubmit={(event) => void form.submit(event)} noValidate>
      <h3 id={headingId} className={recordForm.formTitle}>
        {editing ? 'Edit mileage' : 'Log mileage'}
      </h3>
      <div className={recordForm.grid}>
        <TextField label="Day" type="date" required value={values.date} error={errors.date} onChange={(e) => update('date', e.target.value)} />
        <RecordVehicleField vehicles={vehicles} value={values.vehicleId} error={errors.vehicleId} onChange={(id) => update('vehicleId', id)} />
        {couriers.length > 0 ? (
          <SelectField label="Courier (optional)" value={values.courierId} onChange={(e) => update('courierId', e.target.value)}>
            <option value="">No courier</option>
            {couriers.map((courier) => (
              <option key={courier.id} value={courier.id}>
                {courier.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        <SelectField label="Miles from" value={values.milesFrom} onChange={(e) => update('milesFrom', e.target.value as MilesFrom)}>
          <option value="odometer">Odometer readings</option>
          <option value="typed">Miles I know (no readings)</option>
        </SelectField>
      </div>
      {odometer ? (
        <div className={recordForm.grid}>
          <TextField
            label="Odometer at start"
            inputMode="numeric"
            value={values.odometerStart}
            error={errors.odometerStart}
            onChange={(e) => update('odometerStart', e.target.value)}
          />
          <TextField
            label="Odometer at end"
            inputMode="numeric"
            value={values.odometerEnd}
            error={errors.odometerEnd}
            onChange={(e) => update('odometerEnd', e.target.value)}
          />
        </div>
      ) : null}
      <div className={recordForm.grid}>
        <TextField
          label="Commuting miles"
          optional
          inputMode="numeric"
          placeholder="0"
          value={values.commuteMiles}
          error={errors.commuteMiles}
          onChange={(e) => update('commuteMiles', e.target.value)}
        />
        <TextField
          label="Business miles"
          optional={odometer}
          inputMode="numeric"
          placeholder={business !== null ? String(business) : odometer ? 'the rest' : '0'}
          value={values.businessMiles}
          error={errors.businessMiles}
          onChange={(e) => update('businessMiles', e.target.value)}
        />
      </div>
      <p className={recordList.hint} aria-live="polite">
        {odometer ? <SplitWords span={span} typedBusiness={values.businessMiles} defaultBusiness={business} commute={values.commuteMiles} /> : null}
        {odometer ? ' ' : ''}Home to depot is commuting: it is not claimable, but it counts in the miles driven.
      </p>
      <TextField label="Note" optional maxLength={MAX_NOTE_CHARS} value={values.note} error={errors.note} onChange={(e) => update('note', e.target.value)} />
      {form.failure ? <FormAlert message={form.failure} /> : null}
      <FormActions submitLabel={editing ? 'Save mileage' : 'Log mileage'} submitting={form.submitting} onCancel={onCancel} />
    </form>
  );
}

function wholeOrNull(text: string): number | null {
  const trimmed = text.trim().replace(/,/g, '');
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed === '' ? 0 : null;
}

/** "34 miles driven: 28 business, 6 commuting, 0 private." while the readings make sense. */
function SplitWords({ span, typedBusiness, defaultBusiness, commute }: { span: number | null; typedBusiness: string; defaultBusiness: number | null; commute: string }) {
  if (span === null) return null;
  const commuting = wholeOrNull(commute);
  const business = typedBusiness.trim() === '' ? defaultBusiness : wholeOrNull(typedBusiness);
  if (commuting === null || business === null || business + commuting > span) return <span className={styles.split}>{milesWords(span)} driven.</span>;
  return (
    <span className={styles.split}>
      {milesWords(span)} driven: {business.toLocaleString('en-GB')} business, {commuting.toLocaleString('en-GB')} commuting, {(span - business - commuting).toLocaleString('en-GB')}{' '}
      private.
    </span>
  );
}
