import { useId } from 'react';
import { FormActions } from '@/components/form-actions';
import { FormAlert } from '@/components/form-alert';
import { SelectField, TextField } from '@/components/text-field';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useRefusedFields } from '@/lib/sync-react/use-refused-fields';
import { useForm } from '@/lib/use-form';
import type { CourierContent, LocalCourier, RateCardContent } from '@/sync/types';
import { addCourier, saveCourier } from './commands';
import { blankCourierForm, courierFormOf, courierFormSchema, MAX_ARREARS_WEEKS, MAX_MONTH_DAY, MAX_NAME_CHARS, PALETTE } from './courier-form-schema';
import { WEEKDAYS } from '@/core/pay-periods/pay-period';
import recordForm from '@/components/record-form.module.css';
import styles from './couriers.module.css';

interface CourierFormProps {
  /** The courier being edited, or undefined for a new one. */
  editing?: LocalCourier | undefined;
  /** A new courier's first rate card (from the start), until the driver sets its rates. */
  firstCard: Omit<RateCardContent, 'courierId'>;
  today: string;
  usedColours: readonly string[];
  onSaved: (courier: LocalCourier) => void;
  onCancel: () => void;
}

/** A courier's name, colour and pay period. */
export function CourierForm({ editing, firstCard, today, usedColours, onSaved, onCancel }: CourierFormProps) {
  const handle = useSyncHandle();
  const refused = useRefusedFields(editing?.id);
  const form = useForm({
    refused,
    schema: courierFormSchema,
    initial: () => (editing ? courierFormOf(editing, today) : blankCourierForm(today, usedColours)),
    command: async (courier: CourierContent) => (editing ? saveCourier(handle, courier, editing.id) : (await addCourier(handle, courier, firstCard)).courier),
    onSuccess: (saved) => onSaved(saved),
    failure: () => 'Failed to save the courier',
  });
  const { values, errors, setField: update } = form;
  const headingId = useId();
  const custom = !PALETTE.some((c) => c.value === values.colour.toLowerCase());

  return (
    <form className={recordForm.form} aria-labelledby={headingId} onSubmit={(event) => void form.submit(event)} noValidate>
      <h3 id={headingId} className={recordForm.formTitle}>
        {editing ? `Edit ${editing.name}` : 'Add a courier'}
      </h3>
      <TextField
        label="Name"
        required
        maxLength={MAX_NAME_CHARS}
        placeholder="e.g. Evri"
        value={values.name}
        error={errors.name}
        onChange={(e) => update('name', e.target.value)}
      />
      <fieldset className={styles.colours}>
        <legend className={styles.legend}>Colour</legend>
        <div className={styles.swatches}>
          {PALETTE.map(({ value, name }) => (
            <label key={value} className={styles.swatchOption}>
              <input type="radio" name={`${headingId}-colour`} value={value} checked={values.colour.toLowerCase() === value} onChange={() => update('colour', value)} />
              <span className={styles.swatch} style={{ background: value }} />
              <span className="visually-hidden">{name}</span>
            </label>
          ))}
          <label className={styles.custom}>
            <input type="color" value={values.colour} onChange={(e) => update('colour', e.target.value)} aria-label="Custom colour" />
            <span>{custom ? 'Custom ✓' : 'Custom'}</span>
          </label>
        </div>
        {errors.colour ? <p className={styles.error}>{errors.colour}</p> : null}
      </fieldset>
      <div className={recordForm.grid}>
        <SelectField label="Pay period" value={values.periodKind} onChange={(e) => update('periodKind', e.target.value as typeof values.periodKind)}>
          <option value="weekly">Weekly</option>
          <option value="fourFourFive">4-4-5 (4, 4 then 5 weeks)</option>
          <option value="monthly">Monthly</option>
        </SelectField>
        {values.periodKind === 'weekly' ? (
          <SelectField label="Weeks start on" value={values.weekday} onChange={(e) => update('weekday', e.target.value)}>
            {WEEKDAYS.map((day, i) => (
              <option key={day} value={String(i)}>
                {day}
              </option>
            ))}
          </SelectField>
        ) : values.periodKind === 'fourFourFive' ? (
          <TextField label="A cycle starts on" type="date" value={values.cycleStart} error={errors.cycleStart} onChange={(e) => update('cycleStart', e.target.value)} />
        ) : (
          <TextField
            label="Day of the month it starts"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_MONTH_DAY}
            value={values.monthDay}
            error={errors.monthDay}
            onChange={(e) => update('monthDay', e.target.value)}
          />
        )}
        <TextField
          label="Weeks in arrears"
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_ARREARS_WEEKS}
          value={values.arrearsWeeks}
          error={errors.arrearsWeeks}
          onChange={(e) => update('arrearsWeeks', e.target.value)}
        />
      </div>
      {editing ? null : <p className={styles.hint}>It starts with the standard per-stop rates; set how this courier really pays in its rate card next.</p>}
      {form.failure ? <FormAlert message={form.failure} /> : null}
      <FormActions submitLabel={editing ? 'Save courier' : 'Add courier'} submitting={form.submitting} onCancel={onCancel} />
    </form>
  );
}
