import { Camera, ImagePlus } from 'lucide-react';
import { useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { Button } from '@/components/button';
import { FormActions } from '@/components/form-actions';
import { ChosenCategory, ExpenseCategoryOptions } from '@/components/expense-category-options';
import { FormAlert } from '@/components/form-alert';
import { SelectField, TextField } from '@/components/text-field';
import { VehicleField } from '@/components/vehicle-field';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useRefusedFields } from '@/lib/sync-react/use-refused-fields';
import { useForm } from '@/lib/use-form';
import { asksForVehicle } from '@/core/tax/vehicle-choice';
import { newId } from '@/sync/ids';
import { MAX_RECEIPTS, type NewReceipt } from '@/sync/receipts';
import type { DeductionRepeat, ExpenseCategory, LocalCourier, LocalExpense, LocalVehicle } from '@/sync/types';
import { saveExpense } from './commands';
import { blankExpenseForm, expenseFormOf, expenseFormSchema, MAX_NOTE_CHARS, photoMessages } from './expense-form-schema';
import { categoryLabel } from './expense-words';
import { prepareReceipt } from '@/lib/receipt-image';
import { FormReceipt } from './receipt-photos';
import recordForm from '@/components/record-form.module.css';
import styles from './expenses.module.css';

interface ExpenseFormProps {
  editing?: LocalExpense | undefined;
  couriers: readonly LocalCourier[];
  vehicles: readonly LocalVehicle[];
  today: string;
  onSaved: () => void;
  onCancel: () => void;
}

/**
 * An expense: when, how much, what for, and photos of the receipt. The photos are made smaller
 * and kept in the form (shown at once) until the expense is saved with them in one go.
 */
export function ExpenseForm({ editing, couriers, vehicles, today, onSaved, onCancel }: ExpenseFormProps) {
  const handle = useSyncHandle();
  // Photos picked in this form, by id; the ones it lists but that are not here are stored ones.
  const [added, setAdded] = useState<NewReceipt[]>([]);
  const [preparing, setPreparing] = useState(false);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const cameraRef = useRef<HTMLInputElement>(null);
  const hasVehicles = vehicles.length > 0;
  const schema = useMemo(() => expenseFormSchema(hasVehicles), [hasVehicles]);
  const refused = useRefusedFields(editing?.id);
  const form = useForm({
    refused,
    schema,
    initial: () => (editing ? expenseFormOf(editing) : blankExpenseForm(today)),
    command: (fields) =>
      saveExpense(handle, fields, editing?.id, {
        added: added.filter((photo) => fields.receipts.includes(photo.id)),
        // The stored photos the driver took off: their local copies go with the save.
        removed: (editing?.receipts ?? []).filter((id) => !fields.receipts.includes(id)),
      }),
    onSuccess: () => onSaved(),
    failure: () => 'Failed to save the expense',
  });
  const { values, errors, setField: update } = form;
  const headingId = useId();
  const once = values.repeat === 'once';
  const full = values.receipts.length >= MAX_RECEIPTS;
  // A courier or vehicle is worth naming only when there is a choice (or the expense has one).
  const showCouriers = couriers.length > 1 || values.courierId !== '';
  const showVehicles = vehicles.length > 0 || values.vehicleId !== '';

  async function addPhotos(event: ChangeEvent<HTMLInputElement>) {
    const files = [...(event.target.files ?? [])];
    // The same file may be picked again after removing it.
    event.target.value = '';
    if (files.length === 0) return;
    setPhotoError(null);
    const room = MAX_RECEIPTS - values.receipts.length;
    if (files.length > room) setPhotoError(photoMessages.tooMany);
    const pictures = files.slice(0, Math.max(0, room));
    if (pictures.some((file) => file.type !== '' && !file.type.startsWith('image/'))) {
      setPhotoError(photoMessages.notAPicture);
      return;
    }
    setPreparing(true);
    try {
      const prepared = await Promise.all(pictures.map(async (file) => ({ id: newId(), blob: await prepareReceipt(file) })));
      setAdded((current) => [...current, ...prepared]);
      update('receipts', [...values.receipts, ...prepared.map((photo) => photo.id)]);
    } finally {
      setPreparing(false);
    }
  }

  function removePhoto(id: string) {
    setPhotoError(null);
    setAdded((current) => current.filter((photo) => photo.id !== id));
    update(
      'receipts',
      values.receipts.filter((receipt) => receipt !== id),
    );
  }

  return (
    <form className={recordForm.form} aria-labelledby={headingId} onSubmit={(event) => void form.submit(event)} noValidate>
      <h3 id={headingId} className={recordForm.formTitle}>
        {editing ? `Edit ${categoryLabel(editing).toLowerCase()}` : 'Add an expense'}
      </h3>
      <div className={recordForm.grid}>
        <TextField
          label={once ? 'Paid on' : 'First payment'}
          type="date"
          required
          value={values.date}
          error={errors.date}
          onChange={(e) => update('date', e.target.value)}
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
        <div className={recordForm.wide}>
          <SelectField label="Category" value={values.category} error={errors.category} onChange={(e) => update('category', e.target.value as ExpenseCategory | '')}>
            <ExpenseCategoryOptions />
          </SelectField>
          <ChosenCategory category={values.category} />
        </div>
        {showVehicles ? (
          <VehicleField
            vehicles={vehicles}
            value={values.vehicleId}
            asked={asksForVehicle(values.category, hasVehicles)}
            error={errors.vehicleId}
            onChange={(value) => update('vehicleId', value)}
          />
        ) : null}
        <SelectField label="Repeats" value={values.repeat} onChange={(e) => update('repeat', e.target.value as DeductionRepeat)}>
          <option value="once">Once</option>
          <option value="weekly">Every week</option>
          <option value="monthly">Every month</option>
        </SelectField>
        {once ? null : <TextField label="Until" optional type="date" value={values.until} error={errors.until} onChange={(e) => update('until', e.target.value)} />}
        {showCouriers ? (
          <SelectField label="Courier" optional value={values.courierId} onChange={(e) => update('courierId', e.target.value)}>
            <option value="">No courier</option>
            {couriers.map((courier) => (
              <option key={courier.id} value={courier.id}>
                {courier.name}
              </option>
            ))}
            {values.courierId !== '' && !couriers.some((courier) => courier.id === values.courierId) ? <option value={values.courierId}>Deleted courier</option> : null}
          </SelectField>
        ) : null}
      </div>
      <TextField
        label="Note"
        optional
        maxLength={MAX_NOTE_CHARS}
        placeholder="e.g. Diesel at Tesco"
        value={values.note}
        error={errors.note}
        onChange={(e) => update('note', e.target.value)}
      />
      <fieldset className={styles.photos}>
        <legend className={styles.photosLegend}>Receipt photos</legend>
        {values.receipts.length > 0 ? (
          <ul className={styles.receipts}>
            {values.receipts.map((id, index) => {
              const picked = added.find((photo) => photo.id === id);
              return (
                <FormReceipt
                  key={id}
                  blob={picked?.blob}
                  stored={picked || !editing ? undefined : { id, holderId: editing.id }}
                  name={`Receipt photo ${index + 1} of ${values.receipts.length}`}
                  onRemove={() => removePhoto(id)}
                />
              );
            })}
          </ul>
        ) : null}
        {/* Two ways in: a phone's camera straight away, or a photo already taken (Android opens
            only the camera when an input asks for capture). */}
        <div className={styles.photoButtons}>
          <Button variant="secondary" onClick={() => cameraRef.current?.click()} disabled={full || preparing}>
            <Camera aria-hidden="true" />
            {preparing ? 'Preparing photo…' : 'Take receipt photo'}
          </Button>
          <Button variant="secondary" onClick={() => fileRef.current?.click()} disabled={full || preparing}>
            <ImagePlus aria-hidden="true" />
            Choose photo
          </Button>
          <input
            ref={cameraRef}
            className="visually-hidden"
            type="file"
            accept="image/*"
            capture="environment"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="receipt-camera"
            onChange={(event) => void addPhotos(event)}
          />
          <input
            ref={fileRef}
            className="visually-hidden"
            type="file"
            accept="image/*"
            multiple
            tabIndex={-1}
            aria-hidden="true"
            data-testid="receipt-file"
            onChange={(event) => void addPhotos(event)}
          />
        </div>
        {full ? <p className={styles.hint}>{photoMessages.tooMany}.</p> : null}
        {photoError || errors.receipts ? (
          <p className={styles.photoError} role="alert">
            {photoError ?? errors.receipts}
          </p>
        ) : null}
      </fieldset>
      {form.failure ? <FormAlert message={form.failure} /> : null}
      <FormActions submitLabel={editing ? 'Save expense' : 'Add expense'} submitting={form.submitting} onCancel={onCancel} disabled={preparing} />
    </form>
  );
}
