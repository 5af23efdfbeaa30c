// The "Evidence" section of a day, a statement line or a statement query: what the driver kept at
// the time (notes, photos, waiting times, instructions), each with when this device recorded it
// and when the server first stored it, and "Add evidence". Kept on the device first, synced
// later; a photo uploads through the receipt-photo queue, exactly once.
import { Camera, ImagePlus, Trash2 } from 'lucide-react';
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Button } from '@/components/button';
import { FormActions } from '@/components/form-actions';
import { FormAlert } from '@/components/form-alert';
import { SelectField, TextAreaField, TextField } from '@/components/text-field';
import { EVIDENCE_TYPE_WORDS, evidenceWords, PURPOSE_WORDS } from '@/core/evidence/evidence';
import { formatShortDate, formatTime } from '@/lib/format';
import { prepareReceipt } from '@/lib/receipt-image';
import { useReceipt } from '@/lib/sync-react/use-receipts';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useObjectUrl } from '@/lib/use-object-url';
import type { EvidenceType, PhotoPurpose } from '@/sync/contract.generated';
import { newId } from '@/sync/ids';
import { isOnServer } from '@/sync/records';
import type { NewReceipt } from '@/sync/receipts';
import type { LocalEvidence } from '@/sync/types';
import { deleteEvidence, saveEvidence } from './commands';
import { emptyFields, readEvidence, type EvidenceErrors, type EvidenceFields, type EvidenceHolder } from './evidence-form';
import { useEvidenceOn } from './use-evidence';
import styles from './evidence.module.css';

/** "02/03/2026 14:05" in the device's time zone. */
function when(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : `${formatShortDate(new Date(ms))} ${formatTime(ms)}`;
}

interface EvidenceSectionProps {
  holder: EvidenceHolder;
  /** What the items are kept on, for the heading's accessible name: "this day". */
  about: string;
  /** Words under the heading (the query page says which items its chain recorded). */
  hint?: string | undefined;
  /** Its heading's level: 3 inside another section (a difference's records). */
  level?: 2 | 3;
}

export function EvidenceSection({ holder, about, hint, level = 2 }: EvidenceSectionProps) {
  const items = useEvidenceOn(holder);
  const [adding, setAdding] = useState(false);
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section className={styles.section} aria-label={`Evidence on ${about}`}>
      <div className={styles.head}>
        <Heading className={styles.title}>Evidence</Heading>
        {adding ? null : (
          <Button variant="secondary" onClick={() => setAdding(true)}>
            Add evidence
          </Button>
        )}
      </div>
      {hint ? <p className={styles.hint}>{hint}</p> : null}
      {items === undefined ? null : items.length === 0 ? (
        <p className={styles.hint}>No evidence kept on {about} yet.</p>
      ) : (
        <ul className={styles.list} aria-label={`Evidence on ${about}`}>
          {items.map((item) => (
            <EvidenceRow key={item.id} item={item} />
          ))}
        </ul>
      )}
      {adding ? <EvidenceForm holder={holder} about={about} onDone={() => setAdding(false)} /> : null}
    </section>
  );
}

function EvidenceRow({ item }: { item: LocalEvidence }) {
  const handle = useSyncHandle();
  // Only a record as the server last sent it carries the server's first-stored time (until then
  // `createdAt` is this device's own).
  const stored = isOnServer(item) && item.syncState === 'synced' ? `stored on the server ${when(item.createdAt)}` : 'not on the server yet';
  return (
    <li className={styles.item}>
      {item.photoId ? <EvidencePhoto id={item.photoId} holderId={item.id} name={evidenceWords(item)} /> : null}
      <div className={styles.text}>
        <p className={styles.words}>{evidenceWords(item)}</p>
        {/* The words carry a note's, a caption's or an instruction's first line; the rest, or a waiting time's remark, here. */}
        {(item.type === 'waiting' && item.text) || item.text.trim().includes('\n') ? <p className={styles.more}>{item.text}</p> : null}
        <p className={styles.hint}>
          Recorded {when(item.recordedAt)} on the device · {stored}
        </p>
      </div>
      <Button variant="ghost" aria-label={`Remove ${evidenceWords(item)}`} onClick={() => void deleteEvidence(handle, item.id)}>
        <Trash2 aria-hidden="true" />
      </Button>
    </li>
  );
}

export function EvidencePhoto({ id, holderId, name }: { id: string; holderId: string; name: string }) {
  const photo = useReceipt(id, holderId);
  return (
    <figure className={styles.photo} data-state={photo.state}>
      {photo.url ? <img className={styles.thumb} src={photo.url} alt={name} /> : <span className={styles.thumbEmpty}>{photo.state === 'missing' ? 'Not on this device yet' : ''}</span>}
      {photo.state === 'waiting' ? <figcaption className={styles.hint}>Waiting to upload</figcaption> : null}
      {photo.state === 'failed' ? <figcaption className={styles.error}>{photo.error}</figcaption> : null}
    </figure>
  );
}

const TYPES: readonly EvidenceType[] = ['note', 'photo', 'waiting', 'instruction'];
const PURPOSES: readonly PhotoPurpose[] = ['proofOfDelivery', 'endOfDaySummary', 'damage', 'other'];

function EvidenceForm({ holder, about, onDone }: { holder: EvidenceHolder; about: string; onDone: () => void }) {
  const handle = useSyncHandle();
  const [fields, setFields] = useState<EvidenceFields>(() => emptyFields());
  const [errors, setErrors] = useState<EvidenceErrors>({});
  const [photo, setPhoto] = useState<NewReceipt | null>(null);
  const [preparing, setPreparing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const cameraRef = useRef<HTMLInputElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const preview = useObjectUrl(photo?.blob);
  const set = <K extends keyof EvidenceFields>(key: K, value: EvidenceFields[K]) => setFields((current) => ({ ...current, [key]: value }));

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setPreparing(true);
    try {
      setPhoto({ id: newId(), blob: await prepareReceipt(file) });
      set('hasPhoto', true);
    } finally {
      setPreparing(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const read = readEvidence(fields, holder, new Date().toISOString(), photo?.id ?? null);
    if ('errors' in read) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await saveEvidence(handle, read.content, read.content.type === 'photo' ? photo : null);
      onDone();
    } catch {
      setFailure('The evidence could not be kept on this device. Try again.');
      setSaving(false);
    }
  };

  return (
    <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate aria-label={`Add evidence on ${about}`}>
      <SelectField label="What it is" value={fields.type} onChange={(event) => setFields({ ...emptyFields(event.target.value as EvidenceType), text: fields.text })}>
        {TYPES.map((type) => (
          <option key={type} value={type}>
            {EVIDENCE_TYPE_WORDS[type]}
          </option>
        ))}
      </SelectField>
      {fields.type === 'photo' ? (
        <>
          <SelectField label="What it shows" value={fields.purpose} onChange={(event) => set('purpose', event.target.value as PhotoPurpose)}>
            {PURPOSES.map((purpose) => (
              <option key={purpose} value={purpose}>
                {PURPOSE_WORDS[purpose][0]!.toUpperCase() + PURPOSE_WORDS[purpose].slice(1)}
              </option>
            ))}
          </SelectField>
          {preview ? <img className={styles.thumb} src={preview} alt="The photo picked" /> : null}
          <div className={styles.photoButtons}>
            <Button variant="secondary" onClick={() => cameraRef.current?.click()} disabled={preparing}>
              <Camera aria-hidden="true" />
              {preparing ? 'Preparing photo…' : 'Take photo'}
            </Button>
            <Button variant="secondary" onClick={() => fileRef.current?.click()} disabled={preparing}>
              <ImagePlus aria-hidden="true" />
              Choose photo
            </Button>
            <input ref={cameraRef} className="visually-hidden" type="file" accept="image/*" capture="environment" tabIndex={-1} aria-hidden="true" data-testid="evidence-camera" onChange={(event) => void pick(event)} />
            <input ref={fileRef} className="visually-hidden" type="file" accept="image/*" tabIndex={-1} aria-hidden="true" data-testid="evidence-file" onChange={(event) => void pick(event)} />
          </div>
          {errors.photo ? (
            <p className={styles.error} role="alert">
              {errors.photo}
            </p>
          ) : null}
        </>
      ) : null}
      {fields.type === 'waiting' ? (
        <>
          <TextField label="Minutes waited" inputMode="numeric" autoComplete="off" value={fields.minutes} error={errors.minutes} onChange={(event) => set('minutes', event.target.value)} />
          <TextField label="Where" optional autoComplete="off" value={fields.place} error={errors.place} onChange={(event) => set('place', event.target.value)} />
        </>
      ) : null}
      {fields.type === 'instruction' ? <TextField label="Who gave it" autoComplete="off" value={fields.fromWhom} error={errors.fromWhom} onChange={(event) => set('fromWhom', event.target.value)} /> : null}
      <TextAreaField
        label={fields.type === 'note' ? 'Note' : fields.type === 'instruction' ? 'What you were told' : fields.type === 'photo' ? 'Caption' : 'Note'}
        optional={fields.type === 'photo' || fields.type === 'waiting'}
        rows={3}
        value={fields.text}
        error={errors.text}
        onChange={(event) => set('text', event.target.value)}
      />
      {failure ? <FormAlert message={failure} /> : null}
      <FormActions submitLabel="Save evidence" submitting={saving} onCancel={onDone} disabled={preparing} />
    </form>
  );
}
