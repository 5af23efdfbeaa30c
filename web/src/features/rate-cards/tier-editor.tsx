import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/button';
import { formatPence } from '@/lib/format';
import { penceToPounds } from '@/core/money/money';
import { payFor, type PayTier } from '@/core/pay/pay';
import { addTier, canAddTier, canRemoveTier, exampleStops, idleTiers, MAX_TIERS, payLines, removeTier, withRate, withStopCount } from '@/core/pay/tier-rules';
import styles from './rate-cards.module.css';

/**
 * The per-stop tiers of a card (spec "Payment settings" and "Payment tiers"): add a tier before
 * the final one, remove one while more than 2 exist (never the final one), and a typed value
 * reaches the tiers only when it is valid. `onChange` gets a new list, or nothing when the
 * input was ignored.
 */
export function TierEditor({ tiers, onChange }: { tiers: readonly PayTier[]; onChange: (next: readonly PayTier[]) => void }) {
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
