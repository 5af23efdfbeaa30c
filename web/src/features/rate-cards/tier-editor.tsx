import { Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/button';
import { formatPence } from '@/lib/format';
import { penceToPounds } from '@/core/money/money';
import { payFor, type PayTier } from '@/core/pay/pay';
import {
  addTier,
  canAddTier,
  canRemoveTier,
  exampleStops,
  idleTiers,
  MAX_RATE_PENCE,
  MAX_STOP_COUNT,
  MAX_TIERS,
  MIN_RATE_PENCE,
  MIN_STOP_COUNT,
  payLines,
  removeTier,
  withRate,
  withStopCount,
} from '@/core/pay/tier-rules';
import styles from './rate-cards.module.css';

/**
 * The per-stop tiers of a card (spec "Payment settings" and "Payment tiers"): add a tier before
 * the final one, remove one while more than 2 exist (never the final one), and a typed value
 * reaches the tiers only when it is valid. `onChange` gets a new list, or nothing when the
 * input was ignored. `error` (what the form or the server found wrong with the list) is said
 * below the tiers and read with every box.
 */
export function TierEditor({ tiers, error, onChange }: { tiers: readonly PayTier[]; error?: string | undefined; onChange: (next: readonly PayTier[]) => void }) {
  const errorId = useId();
  const described = error ? errorId : undefined;
  const last = tiers.length - 1;
  const idle = new Set(idleTiers(tiers));
  const edit = (next: readonly PayTier[]) => {
    if (next !== tiers) onChange(next);
  };
  return (
    <div className={styles.tierEditor}>
      <ol className={styles.tiers} aria-label="Pay tiers">
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
                    min={MIN_STOP_COUNT}
                    max={MAX_STOP_COUNT}
                    step={1}
                    errorId={described}
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
                  min={MIN_RATE_PENCE / 100}
                  max={MAX_RATE_PENCE / 100}
                  step={0.01}
                  errorId={described}
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
      {error ? (
        <p id={errorId} className={styles.fieldError}>
          {error}
        </p>
      ) : null}
      <div>
        <Button variant="secondary" onClick={() => edit(addTier(tiers))} disabled={!canAddTier(tiers)}>
          <Plus aria-hidden="true" />
          Add Tier
        </Button>
        {canAddTier(tiers) ? null : <p className={styles.hint}>{MAX_TIERS} tiers is the most a pay list can have.</p>}
      </div>
      <Example tiers={tiers} />
    </div>
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

interface NumberInputProps {
  label: string;
  value: string;
  min: number;
  max: number;
  step: number;
  /** The id of the list's error, while there is one. */
  errorId: string | undefined;
  inputMode: 'numeric' | 'decimal';
  onInput: (text: string) => void;
}

/**
 * A number box that lets the driver type freely (clear it, type a new number) while only
 * valid values reach the tiers; on leaving it shows the kept value again (spec §5: invalid
 * input is ignored and the old value kept).
 */
function NumberInput({ label, value, min, max, step, errorId, inputMode, onInput }: NumberInputProps) {
  const [typing, setTyping] = useState<string | null>(null);
  return (
    <input
      className={styles.input}
      type="number"
      aria-label={label}
      min={min}
      max={max}
      step={step}
      aria-invalid={errorId ? true : undefined}
      aria-describedby={errorId}
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
