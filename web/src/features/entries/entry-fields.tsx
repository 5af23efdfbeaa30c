import { ChevronRight } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { SelectField, TextAreaField, TextField } from '@/components/text-field';
import { formatPence } from '@/lib/format';
import type { PaySetup } from '@/lib/sync-react/use-pay-setup';
import type { EntryContent } from '@/sync/types';
import { capNote, payInputsChanged, priceEditedDay, priceNewDay, pricingNote } from '@/core/pay/day-pricing';
import type { IdentifiedCard } from '@/core/pay/pay';
import { BAND_WORDS, SIZE_BANDS, type SizeBand } from '@/core/pay/size-bands';
import { formCard, formPaidFields, needsOf } from './form-card';
import { BAND_FIELDS, MAX_ITEMS, MAX_NOTES_CHARS, MAX_STOPS, validateEntryForm, type EntryFormErrors, type EntryFormInput } from './entry-form-schema';
import styles from './entry-fields.module.css';

interface EntryFieldsProps {
  form: EntryFormInput;
  errors: EntryFormErrors;
  onChange: (field: keyof EntryFormInput, value: string) => void;
  /** Couriers and cards, to price the day as typed; undefined while loading. */
  pay: PaySetup | undefined;
  /** The courier an unchosen courier field ('') stands for: the last used. */
  defaultCourierId: string;
  /** When editing: the day as saved, whose total stays unless a pay input changes. */
  saved?: EntryContent | undefined;
  /** More of the day kept behind "More details" with the counts it does not price (the van's odometer). */
  moreDetails?: ReactNode;
}

type Optional = 'stops' | 'parcels' | 'collections' | 'failed' | 'times';

/**
 * A day's fields with the total they come to, for new and edited days alike. The form asks for
 * what the card in force prices (stops for a per-stop card, parcels for a per-parcel one, start
 * and finish for an hourly one, nothing beyond the date for a day rate); the rest wait behind
 * "More details", so a per-stop driver sees the short form the spec describes and an Evri
 * driver sees parcels, not stops. The total follows every keystroke.
 */
export function EntryFields({ form, errors, onChange, pay, defaultCourierId, saved, moreDetails }: EntryFieldsProps) {
  const courierId = form.courierId || defaultCourierId;
  const card = formCard(pay, form, defaultCourierId);
  const paid = formPaidFields(pay, form, defaultCourierId);
  const checked = validateEntryForm({ ...form, courierId }, needsOf(paid));
  const draft = checked.ok ? { ...checked.value, separateShift: saved?.separateShift ?? false } : null;
  const unchanged = saved !== undefined && draft !== null && !payInputsChanged(saved, draft);
  const preview = !pay || !draft ? null : saved ? priceEditedDay(saved, draft, pay.cards).total : priceNewDay(draft, pay.cards).total;
  const courier = pay?.couriers.find((c) => c.id === courierId);
  const note = !pay ? '' : unchanged ? 'Nothing that decides pay was changed: the total stays as saved' : pricingNote(card, courier?.name ?? 'your courier');
  const capped = draft && !unchanged ? capNote(card, draft) : null;

  const optional: Record<Optional, ReactNode> = {
    stops: <StopsField key="stops" required={paid.stops} form={form} errors={errors} onChange={onChange} />,
    parcels: <ItemField key="parcels" label="Parcels" field="parcels" required={paid.parcels} form={form} errors={errors} onChange={onChange} />,
    collections: <ItemField key="collections" label="Collections" field="collections" form={form} errors={errors} onChange={onChange} />,
    failed: <ItemField key="failed" label="Failed/returned" field="failed" form={form} errors={errors} onChange={onChange} />,
    times: <TimeFields key="times" form={form} errors={errors} onChange={onChange} />,
  };
  const order: Optional[] = ['stops', 'parcels', 'collections', 'failed', 'times'];
  const shown = order.filter((field) => paid[field]);
  // A card paying by band counts the parcels in the band row: no second parcels field.
  const hidden = order.filter((field) => !paid[field] && !(field === 'parcels' && paid.bands));

  return (
    <>
      <div className={styles.grid}>
        {pay && (pay.couriers.length > 1 || (courier === undefined && pay.couriers.length > 0)) ? (
          <div className={styles.wide}>
            <SelectField label="Courier" value={courierId} onChange={(event) => onChange('courierId', event.target.value)}>
              {pay.couriers.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
              {courier === undefined ? <option value={courierId}>Deleted courier</option> : null}
            </SelectField>
          </div>
        ) : null}
        <TextField
          label="Date"
          type="date"
          required
          value={form.date}
          error={errors.date}
          onChange={(event) => onChange('date', event.target.value)}
        />
        {shown.map((field) => optional[field])}
        {paid.bands ? <BandFields card={card} form={form} errors={errors} onChange={onChange} /> : null}
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
      <p className={styles.pricing} data-card={card ? 'yes' : 'no'}>
        {note}
      </p>
      {capped ? <p className={styles.capped}>{capped}</p> : null}
      {hidden.length > 0 || moreDetails ? (
        <MoreDetails fields={hidden} form={form} errors={errors} render={(field) => optional[field]}>
          {moreDetails}
        </MoreDetails>
      ) : null}
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

const hasValue: Record<Optional, (form: EntryFormInput) => boolean> = {
  stops: (form) => form.stops.trim() !== '',
  parcels: (form) => form.parcels.trim() !== '',
  collections: (form) => form.collections.trim() !== '',
  failed: (form) => form.failed.trim() !== '',
  times: (form) => form.startTime !== '' || form.finishTime !== '',
};

const errorIn: Record<Optional, (errors: EntryFormErrors) => boolean> = {
  stops: (errors) => Boolean(errors.stops),
  parcels: (errors) => Boolean(errors.parcels),
  collections: (errors) => Boolean(errors.collections),
  failed: (errors) => Boolean(errors.failed),
  times: (errors) => Boolean(errors.startTime || errors.finishTime),
};

/** "More details" open or closed as the driver last left it, on this device (issue 26). */
const MORE_DETAILS_KEY = 'delivery-tracker:more-details-open';

function rememberedOpen(): boolean {
  try {
    return localStorage.getItem(MORE_DETAILS_KEY) === '1';
  } catch {
    return false;
  }
}

function rememberOpen(open: boolean): void {
  try {
    localStorage.setItem(MORE_DETAILS_KEY, open ? '1' : '0');
  } catch {
    // Storage blocked: it opens as the card decides next time.
  }
}

/**
 * The optional fields the card does not pay for. Open as the driver last left it (remembered on
 * the device, so a driver who tracks hours opens it once), and whenever one of its fields holds
 * a value (a day being edited, times the shift clock filled in).
 */
function MoreDetails({ fields, form, errors, render, children }: { fields: Optional[]; form: EntryFormInput; errors: EntryFormErrors; render: (field: Optional) => ReactNode; children?: ReactNode }) {
  const filled = fields.some((field) => hasValue[field](form));
  const [open, setOpen] = useState(() => rememberedOpen() || filled);
  const [wasFilled, setWasFilled] = useState(filled);
  if (filled !== wasFilled) {
    setWasFilled(filled);
    if (filled) setOpen(true);
  }
  // A field with a problem is never left hidden.
  const mustShow = fields.some((field) => errorIn[field](errors));
  return (
    <details className={styles.more} open={open || mustShow} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className={styles.moreSummary} onClick={() => rememberOpen(!(open || mustShow))}>
        <ChevronRight aria-hidden="true" />
        More details
        <span className={styles.moreHint}>{[...fields.map((field) => OPTIONAL_WORDS[field]), ...(children ? ['odometer'] : [])].join(', ')}</span>
      </summary>
      <div className={styles.grid}>
        {fields.map(render)}
        {children}
      </div>
    </details>
  );
}

const OPTIONAL_WORDS: Record<Optional, string> = {
  stops: 'stops',
  parcels: 'parcels',
  collections: 'collections',
  failed: 'failed/returned',
  times: 'start and finish',
};

interface PartProps {
  form: EntryFormInput;
  errors: EntryFormErrors;
  onChange: (field: keyof EntryFormInput, value: string) => void;
}

/**
 * Stops: required (the spec's form) when the card prices them. No greyed "0" in it: an empty
 * field must not look like a count already typed.
 */
function StopsField({ required = false, form, errors, onChange }: PartProps & { required?: boolean }) {
  return (
    <TextField
      label="Stops"
      type="number"
      inputMode="numeric"
      min={0}
      max={MAX_STOPS}
      step={1}
      required={required}
      value={form.stops}
      error={errors.stops}
      onChange={(event) => onChange('stops', event.target.value)}
    />
  );
}

function ItemField({ label, field, required = false, form, errors, onChange }: PartProps & { label: string; field: 'parcels' | 'collections' | 'failed'; required?: boolean }) {
  return (
    <TextField
      label={label}
      type="number"
      inputMode="numeric"
      min={0}
      max={MAX_ITEMS}
      step={1}
      required={required}
      value={form[field]}
      error={errors[field]}
      onChange={(event) => onChange(field, event.target.value)}
    />
  );
}

/**
 * Parcels by size band, for a card that pays by band: one compact row of counts (the bands the
 * card prices, and any band already counted), with the parcels they add up to. The day's
 * parcels are that sum, so there is no separate parcels field to keep in step.
 */
function BandFields({ card, form, errors, onChange }: PartProps & { card: IdentifiedCard | null }) {
  const legendId = useId();
  const counted = (band: SizeBand) => form[BAND_FIELDS[band]].trim() !== '';
  const bands = SIZE_BANDS.filter((band) => (card?.bandRates?.[band] ?? null) !== null || counted(band));
  const total = bands.reduce((sum, band) => {
    const text = form[BAND_FIELDS[band]].trim();
    return sum + (/^\d+$/.test(text) ? Number(text) : 0);
  }, 0);
  const error = SIZE_BANDS.map((band) => errors[BAND_FIELDS[band]]).find(Boolean);
  return (
    <fieldset className={styles.bands} aria-labelledby={legendId}>
      <legend id={legendId} className={styles.bandsLegend}>
        Parcels by size band <span className={styles.bandsTotal}>= {total} {total === 1 ? 'parcel' : 'parcels'}</span>
      </legend>
      <div className={styles.bandRow} style={{ gridTemplateColumns: `repeat(${bands.length}, minmax(0, 1fr))` }}>
        {bands.map((band) => (
          <TextField
            key={band}
            label={BAND_WORDS[band]}
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_ITEMS}
            step={1}
            value={form[BAND_FIELDS[band]]}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${legendId}-error` : undefined}
            onChange={(event) => onChange(BAND_FIELDS[band], event.target.value)}
          />
        ))}
      </div>
      {error ? (
        <p id={`${legendId}-error`} className={styles.bandsError}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** Start and finish side by side on a row of their own: they are read as one span of time. */
function TimeFields({ form, errors, onChange }: PartProps) {
  return (
    <div className={styles.pair}>
      <TextField label="Start time" type="time" value={form.startTime} error={errors.startTime} onChange={(event) => onChange('startTime', event.target.value)} />
      <TextField label="Finish time" type="time" value={form.finishTime} error={errors.finishTime} onChange={(event) => onChange('finishTime', event.target.value)} />
    </div>
  );
}
