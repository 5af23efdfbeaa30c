import { Plus, Trash2 } from 'lucide-react';
import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { Spinner } from '@/components/spinner';
import { TextField } from '@/components/text-field';
import type { FieldErrors } from '@/lib/form';
import { formatShortDate } from '@/lib/format';
import { useRefusedFields } from '@/lib/sync-react/use-refused-fields';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { BAND_WORDS, SIZE_BANDS } from '@/core/pay/size-bands';
import { definedOnly, useRefusal } from '@/lib/use-form';
import type { LocalRateCard, RecordSyncState, RefusedFields } from '@/sync/types';
import { blankPeak, cardFormOf, MAX_LABEL_CHARS, MAX_PEAKS, validateCardForm, type CardFormInput, type PeakInput } from './card-form-schema';
import { CARD_SECTIONS, sectionsInUse, type CardSection } from './card-sections';
import { saveCard } from './commands';
import { rateCardMessages } from './rate-card-messages';
import { TierEditor } from './tier-editor';
import styles from './rate-cards.module.css';

interface RateCardEditorProps {
  courierId: string;
  /** Read with the form's name: two couriers' editors open at once must not share a name. */
  courierName: string;
  /** The card being edited, or undefined for a new card from a date. */
  card?: LocalRateCard | undefined;
  /** A new card's starting values: the rules in force today, from today. */
  initial?: CardFormInput | undefined;
  /** The courier's first card: it is in force from the start, so it has no date to pick. */
  first: boolean;
  /** The start days of the courier's other cards. */
  takenDates: readonly string[];
  today: string;
  onSaved: (card: LocalRateCard) => void;
  onCancel: () => void;
}

/**
 * How a courier pays from a date: per stop (the spec's tier editor), per parcel, collection,
 * failed item, day, hour, and peaks. Editing, then saving, then saved (said by the caller) or
 * error. While nothing is typed the form follows the stored card, so a change synced in from
 * another device shows at once.
 */
export function RateCardEditor({ courierId, courierName, card, initial, first, takenDates, today, onSaved, onCancel }: RateCardEditorProps) {
  const handle = useSyncHandle();
  const stored = card ? cardFormOf(card) : initial!;
  // null: nothing typed yet, so the form follows the stored card.
  const [draft, setDraft] = useState<CardFormInput | null>(null);
  const [errors, setErrors] = useState<FieldErrors<CardFormInput>>({});
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  // What the server refused in this card's last change that no field of the form shows.
  const [refusedRest, setRefusedRest] = useState<string | null>(null);
  const headingId = useId();
  const values = draft ?? stored;
  const refused = useRefusedFields(card?.id);
  const onTheForm = useMemo(() => refused && tiersNamed(refused), [refused]);
  // The first card has no start day to show: a problem with it is said above the buttons.
  const { validFrom: _noDay, ...withoutDay } = values;
  useRefusal(onTheForm, first ? withoutDay : values, (fieldErrors, rest) => {
    setErrors((current) => ({ ...fieldErrors, ...definedOnly(current) }));
    if (rest.length > 0) setRefusedRest(rest.join(' '));
  });
  // The optional parts the card uses, and those the driver opened: the rest wait behind a button.
  const [opened, setOpened] = useState<ReadonlySet<CardSection>>(new Set());
  const [justOpened, setJustOpened] = useState<CardSection | null>(null);
  const inUse = sectionsInUse(values);
  const shown = (section: CardSection) => inUse.has(section) || opened.has(section);
  function open(section: CardSection) {
    setOpened(new Set([...opened, section]));
    setJustOpened(section);
    // A peak is what "Peak periods" is for: the tap adds the first one.
    if (section === 'peaks' && values.peaks.length === 0) set('peaks', [blankPeak(today)]);
  }
  /** A part opened by a tap takes the focus to its first box, so the keyboard does not lose its place. */
  const focusIfOpened = (section: CardSection) => (element: HTMLFieldSetElement | null) => {
    if (!element || justOpened !== section) return;
    element.querySelector<HTMLInputElement>('input')?.focus();
    // Once: a later render (any keystroke) must not pull the focus back here.
    setJustOpened(null);
  };
  const changed = !card || JSON.stringify(values) !== JSON.stringify(stored);

  function set<F extends keyof CardFormInput>(field: F, value: CardFormInput[F]) {
    setDraft({ ...values, [field]: value });
    setErrors((current) => ({ ...current, [field]: undefined, ...(field === 'perStopOn' || isRule(field) ? { perStopOn: undefined } : {}) }));
    setFailed(false);
  }

  function setPeak(index: number, patch: Partial<PeakInput>) {
    set(
      'peaks',
      values.peaks.map((peak, i) => (i === index ? { ...peak, ...patch } : peak)),
    );
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const result = validateCardForm(values, { first, takenDates });
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setSaving(true);
    setFailed(false);
    setRefusedRest(null);
    try {
      const saved = await saveCard(handle, { courierId, ...result.value }, card?.id);
      setDraft(null);
      onSaved(saved);
    } catch {
      setFailed(true);
    } finally {
      setSaving(false);
    }
  }

  const title = !card ? 'Change rates from a date' : first ? 'Rates from the start' : `Rates from ${formatShortDate(card.validFrom)}`;
  return (
    <form className={styles.editor} aria-labelledby={headingId} onSubmit={(event) => void save(event)} noValidate>
      <h4 id={headingId} className={styles.editorTitle}>
        {title}
        {' '}
        <span className="visually-hidden">for {courierName}</span>
      </h4>
      <div className={styles.formGrid}>
        {first ? null : (
          <TextField label="New rates start on" type="date" required value={values.validFrom} error={errors.validFrom} onChange={(e) => set('validFrom', e.target.value)} />
        )}
        <TextField
          label="Label"
          optional
          maxLength={MAX_LABEL_CHARS}
          placeholder="e.g. September review"
          value={values.label}
          error={errors.label}
          onChange={(e) => set('label', e.target.value)}
        />
      </div>
      {errors.perStopOn ? (
        <p className={styles.fieldError} role="alert">
          {errors.perStopOn}
        </p>
      ) : null}
      <fieldset className={styles.group}>
        <legend className={styles.legend}>Per stop</legend>
        <label className={styles.check}>
          <input type="checkbox" checked={values.perStopOn} onChange={(e) => set('perStopOn', e.target.checked)} />
          Pay per stop, in tiers
        </label>
        {values.perStopOn ? (
          <TierEditor tiers={values.tiers} error={errors.tiers} onChange={(tiers) => set('tiers', tiers)} />
        ) : errors.tiers ? (
          <p className={styles.fieldError}>{errors.tiers}</p>
        ) : null}
      </fieldset>
      {shown('perItem') ? (
        <fieldset className={styles.group} ref={focusIfOpened('perItem')}>
          <legend className={styles.legend}>Per item</legend>
          <p className={styles.hint}>Leave a box empty when this courier does not pay that way.</p>
          <div className={styles.formGrid}>
            <Money label="Per parcel (£)" value={values.perParcel} error={errors.perParcel} onChange={(v) => set('perParcel', v)} />
            <TextField
              label="Parcels paid a stop, at most"
              optional
              inputMode="numeric"
              placeholder="No cap"
              value={values.parcelCapPerStop}
              error={errors.parcelCapPerStop}
              onChange={(e) => set('parcelCapPerStop', e.target.value)}
            />
            <Money label="Per collection (£)" value={values.perCollection} error={errors.perCollection} onChange={(v) => set('perCollection', v)} />
            <Money label="Per failed or returned item (£)" value={values.perFailed} error={errors.perFailed} onChange={(v) => set('perFailed', v)} />
          </div>
        </fieldset>
      ) : null}
      {shown('byBand') ? (
        <fieldset className={styles.group} ref={focusIfOpened('byBand')}>
          <legend className={styles.legend}>Per parcel by size band</legend>
          <p className={styles.hint}>For a courier that pays by size band: fill in the bands it pays, leave the others empty. The day form then counts parcels by these bands.</p>
          <div className={styles.formGrid}>
            {SIZE_BANDS.map((band) => (
              <Money
                key={band}
                label={`${BAND_WORDS[band]} parcel (£)`}
                value={values.bandRates[band]}
                onChange={(v) => set('bandRates', { ...values.bandRates, [band]: v })}
              />
            ))}
          </div>
          {errors.bandRates ? <p className={styles.fieldError}>{errors.bandRates}</p> : null}
        </fieldset>
      ) : null}
      {shown('perTime') ? (
        <fieldset className={styles.group} ref={focusIfOpened('perTime')}>
          <legend className={styles.legend}>Per day or hour</legend>
          <div className={styles.formGrid}>
            <Money label="Day or route rate (£)" value={values.dayRate} error={errors.dayRate} onChange={(v) => set('dayRate', v)} />
            <Money label="Hourly rate (£)" value={values.hourly} error={errors.hourly} onChange={(v) => set('hourly', v)} />
          </div>
        </fieldset>
      ) : null}
      {shown('peaks') ? (
        <fieldset className={styles.group} ref={focusIfOpened('peaks')}>
          <legend className={styles.legend}>Peak periods</legend>
          {values.peaks.length === 0 ? <p className={styles.hint}>Extra pay between two dates, per stop or as a percentage.</p> : null}
          {values.peaks.map((peak, index) => (
            <div key={index} className={styles.peak} role="group" aria-label={`Peak ${index + 1}`}>
              <div className={styles.tierHead}>
                <p className={styles.tierName}>Peak {index + 1}</p>
                <button
                  type="button"
                  className={styles.remove}
                  aria-label={`Remove peak ${index + 1}`}
                  onClick={() =>
                    set(
                      'peaks',
                      values.peaks.filter((_, i) => i !== index),
                    )
                  }
                >
                  <Trash2 aria-hidden="true" />
                </button>
              </div>
              <div className={styles.formGrid}>
                <TextField label="First day" type="date" value={peak.from} onChange={(e) => setPeak(index, { from: e.target.value })} />
                <TextField label="Last day" type="date" value={peak.to} onChange={(e) => setPeak(index, { to: e.target.value })} />
                <Money label="Extra per stop (£)" value={peak.extraPerStop} onChange={(v) => setPeak(index, { extraPerStop: v })} />
                <TextField
                  label="Multiplier (%)"
                  optional
                  inputMode="numeric"
                  placeholder="e.g. 150"
                  value={peak.multiplierPercent}
                  onChange={(e) => setPeak(index, { multiplierPercent: e.target.value })}
                />
              </div>
            </div>
          ))}
          {errors.peaks ? <p className={styles.fieldError}>{errors.peaks}</p> : null}
          <div>
            <Button variant="secondary" disabled={values.peaks.length >= MAX_PEAKS} onClick={() => set('peaks', [...values.peaks, blankPeak(today)])}>
              <Plus aria-hidden="true" />
              Add peak
            </Button>
          </div>
        </fieldset>
      ) : null}
      <MoreWaysToPay hidden={CARD_SECTIONS.filter((section) => !shown(section))} onOpen={open} />
      {failed ? <FormAlert message={rateCardMessages.saveFailed} /> : <FormAlert message={refusedRest} />}
      <div className={styles.actions}>
        <Button type="submit" disabled={saving || !changed} aria-busy={saving}>
          {saving ? <Spinner size="sm" decorative /> : null}
          {saving ? 'Saving...' : 'Save'}
        </Button>
        {card && changed ? (
          <Button
            variant="ghost"
            disabled={saving}
            onClick={() => {
              setDraft(null);
              setErrors({});
            }}
          >
            Undo changes
          </Button>
        ) : null}
        <Button variant="ghost" disabled={saving} onClick={onCancel}>
          {card ? 'Close' : 'Cancel'}
        </Button>
        <SyncNote syncState={card?.syncState ?? 'synced'} changed={Boolean(card) && changed} />
      </div>
    </form>
  );
}

const sectionButtons: Record<CardSection, ReactNode> = {
  perItem: 'Per parcel, collection or failed item',
  byBand: 'Per parcel by size band',
  perTime: 'Day rate or hourly',
  peaks: 'Peak period',
};

/** The parts a card does not use yet, one tap each. */
function MoreWaysToPay({ hidden, onOpen }: { hidden: CardSection[]; onOpen: (section: CardSection) => void }) {
  const labelId = useId();
  if (hidden.length === 0) return null;
  return (
    <div className={styles.group} role="group" aria-labelledby={labelId}>
      <p id={labelId} className={styles.legend}>
        Other ways this courier pays
      </p>
      <div className={styles.moreWays}>
        {hidden.map((section) => (
          <Button key={section} variant="secondary" onClick={() => onOpen(section)}>
            <Plus aria-hidden="true" />
            {sectionButtons[section]}
          </Button>
        ))}
      </div>
    </div>
  );
}

/** A refused card's problems by the form's fields: the wire's per-stop list is the tier editor. */
function tiersNamed(refused: RefusedFields): RefusedFields {
  const { perStop, ...rest } = refused;
  return perStop ? { ...rest, tiers: perStop } : refused;
}

const RULES: readonly (keyof CardFormInput)[] = ['perParcel', 'bandRates', 'perCollection', 'dayRate', 'hourly', 'tiers'];
const isRule = (field: keyof CardFormInput) => RULES.includes(field);

function Money({ label, value, error, onChange }: { label: string; value: string; error?: string | undefined; onChange: (value: string) => void }) {
  return <TextField label={label} optional inputMode="decimal" placeholder="Not used" value={value} error={error} onChange={(e) => onChange(e.target.value)} />;
}

function SyncNote({ syncState, changed }: { syncState: RecordSyncState; changed: boolean }) {
  if (changed) return <span className={styles.note}>Unsaved changes</span>;
  if (syncState === 'pending') return <span className={styles.note}>Saved on this device, waiting to sync</span>;
  if (syncState === 'parked') return <span className={styles.noteError}>Not synced: see Changes not synced on the dashboard</span>;
  return null;
}
