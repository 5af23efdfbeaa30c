import { CircleCheck, Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { Page } from '@/components/page';
import { Spinner } from '@/components/spinner';
import { useFlash } from '@/lib/flash';
import { formatPence } from '@/lib/format';
import { penceToPounds } from '@/lib/money';
import { payFor, type PayTier } from '@/lib/pay';
import { useSession } from '@/lib/session/use-session';
import { profileView, useProfileDoc } from '@/lib/sync/use-profile';
import { saveProfile } from '@/lib/sync/doc-commands';
import { useSyncHandle } from '@/lib/sync/use-sync';
import type { RecordSyncState } from '@/sync/types';
import {
  addTier,
  canAddTier,
  canRemoveTier,
  exampleStops,
  idleTiers,
  MAX_TIERS,
  payLines,
  removeTier,
  sameTiers,
  toStored,
  withRate,
  withStopCount,
} from './tier-rules';
import { settingsMessages } from './settings-messages';
import styles from './settings-page.module.css';

const intro = 'How you are paid per stop. New entries are priced with these tiers; entries already logged keep their totals.';

/** Spec §4 "Payment settings": loading, then editing, then saving, then saved or error. */
export function SettingsPage() {
  const read = useProfileDoc();
  const session = useSession();
  return (
    <Page title="Payment Settings" intro={intro}>
      {read.status === 'loading' || session.status !== 'signed-in' ? (
        <Spinner label="Loading payment settings" />
      ) : read.status === 'failed' ? (
        <FormAlert message={settingsMessages.loadFailed} />
      ) : (
        <TierEditor stored={profileView(read.doc, session.user).tiers} syncState={read.doc?.syncState ?? 'synced'} />
      )}
    </Page>
  );
}

function TierEditor({ stored, syncState }: { stored: readonly PayTier[]; syncState: RecordSyncState }) {
  const handle = useSyncHandle();
  // null: nothing typed yet, so the list follows the stored one (including changes synced in).
  const [draft, setDraft] = useState<readonly PayTier[] | null>(null);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const [saved, showSaved, clearSaved] = useFlash();
  const headingId = useId();
  const tiers = draft ?? stored;
  const changed = !sameTiers(tiers, stored);

  function edit(next: readonly PayTier[]) {
    if (next === tiers) return;
    setDraft(next);
    setFailed(false);
    clearSaved();
  }

  async function save() {
    setSaving(true);
    setFailed(false);
    try {
      await saveProfile(handle, { paymentConfig: { tiers: toStored(tiers) } });
      setDraft(null);
      showSaved(settingsMessages.saved);
    } catch {
      setFailed(true);
    } finally {
      setSaving(false);
    }
  }

  const last = tiers.length - 1;
  const idle = new Set(idleTiers(tiers));
  return (
    <section className={styles.card} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.title}>
        Pay tiers
      </h2>
      <ol className={styles.tiers}>
        {tiers.map((tier, index) => (
          <li key={index} className={styles.tier}>
            <div className={styles.tierHead}>
              <p className={styles.tierName}>{index === last ? 'Final tier' : `Tier ${index + 1}`}</p>
              {canRemoveTier(tiers, index) ? (
                <button type="button" className={styles.remove} aria-label={`Remove tier ${index + 1}`} onClick={() => edit(removeTier(tiers, index))}>
                  <Trash2 aria-hidden="true" />
                </button>
              ) : null}
            </div>
            <div className={styles.fields}>
              {index === last ? null : (
                <span className={styles.field}>
                  <span className={styles.lead} aria-hidden="true">
                    Up to
                  </span>
                  <NumberInput
                    label={`Tier ${index + 1}: up to how many stops`}
                    value={String(tier.stopCount ?? '')}
                    min={1}
                    step={1}
                    inputMode="numeric"
                    onInput={(text) => edit(withStopCount(tiers, index, text))}
                  />
                  <span aria-hidden="true">stops</span>
                </span>
              )}
              <span className={styles.field}>
                <span className={styles.lead} aria-hidden="true">
                  <span>{index === last ? 'After that' : 'Rate'}</span>
                  <span>£</span>
                </span>
                <NumberInput
                  label={index === last ? 'After that: rate (£ per stop)' : `Tier ${index + 1}: rate (£ per stop)`}
                  value={penceToPounds(tier.rate)}
                  min={0.01}
                  step={0.01}
                  inputMode="decimal"
                  onInput={(text) => edit(withRate(tiers, index, text))}
                />
                <span aria-hidden="true">a stop</span>
              </span>
            </div>
            {idle.has(index) ? <p className={styles.warning}>This tier covers no stops: its stop count must be above the tier before.</p> : null}
          </li>
        ))}
      </ol>
      <div>
        <Button variant="secondary" onClick={() => edit(addTier(tiers))} disabled={!canAddTier(tiers)}>
          <Plus aria-hidden="true" />
          Add Tier
        </Button>
        {canAddTier(tiers) ? null : <p className={styles.hint}>{MAX_TIERS} tiers is the most a pay list can have.</p>}
      </div>
      <Example tiers={tiers} />
      {failed ? <FormAlert message={settingsMessages.saveFailed} /> : null}
      <div className={styles.actions}>
        <Button onClick={() => void save()} disabled={saving || !changed} aria-busy={saving}>
          {saving ? <Spinner size="sm" decorative /> : null}
          {saving ? 'Saving...' : 'Save'}
        </Button>
        {changed ? (
          <Button variant="ghost" onClick={() => edit(stored)} disabled={saving}>
            Undo changes
          </Button>
        ) : null}
        <SyncNote syncState={syncState} changed={changed} />
      </div>
      <p role="status" className={styles.saved}>
        {saved ? (
          <>
            <CircleCheck aria-hidden="true" />
            {saved}
          </>
        ) : null}
      </p>
    </section>
  );
}

/** A small worked example, so a driver sees what the numbers mean. */
function Example({ tiers }: { tiers: readonly PayTier[] }) {
  const stops = exampleStops(tiers);
  const lines = payLines(tiers, stops);
  return (
    <div className={styles.example} aria-live="polite">
      <p>
        A {stops}-stop day pays <strong>{formatPence(payFor(tiers, stops))}</strong>
      </p>
      <p className={styles.exampleLines}>{lines.map((line) => `${line.stops} × ${formatPence(line.rate)}`).join(' + ')}</p>
    </div>
  );
}

function SyncNote({ syncState, changed }: { syncState: RecordSyncState; changed: boolean }) {
  if (changed) return <span className={styles.note}>Unsaved changes</span>;
  if (syncState === 'pending') return <span className={styles.note}>Saved on this device, waiting to sync</span>;
  if (syncState === 'parked') return <span className={styles.noteError}>Not synced: see Changes not synced on the dashboard</span>;
  return null;
}

interface NumberInputProps {
  label: string;
  value: string;
  min: number;
  step: number;
  inputMode: 'numeric' | 'decimal';
  onInput: (text: string) => void;
}

/**
 * A number box that lets the driver type freely (clear it, type a new number) while only
 * valid values reach the tiers; on leaving it shows the kept value again (spec §5: invalid
 * input is ignored and the old value kept).
 */
function NumberInput({ label, value, min, step, inputMode, onInput }: NumberInputProps) {
  const [typing, setTyping] = useState<string | null>(null);
  return (
    <input
      className={styles.input}
      type="number"
      aria-label={label}
      min={min}
      step={step}
      inputMode={inputMode}
      value={typing ?? value}
      onChange={(event) => {
        setTyping(event.target.value);
        onInput(event.target.value);
      }}
      onBlur={() => setTyping(null)}
    />
  );
}
