import { TextAreaField, TextField } from '@/components/text-field';
import { formatPence } from '@/lib/format';
import { parsePounds } from '@/lib/money';
import { payFor, type PayTier } from '@/lib/pay';
import { MAX_NOTES_CHARS, MAX_STOPS, type EntryFormErrors, type EntryFormInput } from './entry-form-schema';
import styles from './entry-fields.module.css';

interface EntryFieldsProps {
  form: EntryFormInput;
  errors: EntryFormErrors;
  onChange: (field: keyof EntryFormInput, value: string) => void;
  /** The driver's tiers, to preview the day's total as typed; undefined while loading. */
  tiers: readonly PayTier[] | undefined;
}

/** A day's fields (date, stops, extra, notes) with the total they come to: new and edited entries alike. */
export function EntryFields({ form, errors, onChange, tiers }: EntryFieldsProps) {
  const preview = previewTotal(form, tiers);
  return (
    <>
      <div className={styles.grid}>
        <TextField
          label="Date"
          type="date"
          required
          value={form.date}
          error={errors.date}
          onChange={(event) => onChange('date', event.target.value)}
        />
        <TextField
          label="Stops"
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_STOPS}
          step={1}
          required
          placeholder="0"
          value={form.stops}
          error={errors.stops}
          onChange={(event) => onChange('stops', event.target.value)}
        />
        <TextField
          label="Extra (£)"
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          placeholder="0.00"
          value={form.extra}
          error={errors.extra}
          onChange={(event) => onChange('extra', event.target.value)}
        />
        <div className={styles.preview}>
          <span className={styles.previewLabel}>Day total</span>
          <span className={styles.previewValue}>{preview === null ? '—' : formatPence(preview)}</span>
        </div>
      </div>
      <TextAreaField
        label="Notes"
        optional
        rows={2}
        maxLength={MAX_NOTES_CHARS}
        value={form.notes}
        error={errors.notes}
        onChange={(event) => onChange('notes', event.target.value)}
      />
    </>
  );
}

/** What the entry will total as typed, or null while stops is not a valid number yet. */
function previewTotal(form: EntryFormInput, tiers: readonly PayTier[] | undefined): number | null {
  if (!tiers) return null;
  const stops = form.stops.trim();
  if (!/^\d+$/.test(stops) || Number(stops) > MAX_STOPS) return null;
  const extra = form.extra.trim() === '' ? 0 : parsePounds(form.extra);
  if (extra === null) return null;
  return payFor(tiers, Number(stops)) + extra;
}
