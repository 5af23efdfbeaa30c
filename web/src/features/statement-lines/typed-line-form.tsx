// A line typed from a paper or on-screen statement: the same record an import makes, with its
// own key so it is never mistaken for a file's row.
import { Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { SelectField, TextField } from '@/components/text-field';
import { readMoney, LINE_TYPES, SIZE_BANDS } from '@/core/statement-lines/read-lines';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { LineType, SizeBand } from '@/sync/contract.generated';
import type { LocalStatementCheck } from '@/sync/types';
import { saveTypedLine } from './commands';
import { BAND_WORDS, LINE_TYPE_WORDS } from './words';
import styles from './statement-lines.module.css';

export function TypedLineForm({ check }: { check: LocalStatementCheck }) {
  const handle = useSyncHandle();
  const headingId = useId();
  const [open, setOpen] = useState(false);
  const [date, setDate] = useState(check.periodStart);
  const [lineType, setLineType] = useState<LineType>('stop');
  const [band, setBand] = useState<SizeBand | ''>('');
  const [quantity, setQuantity] = useState('1');
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const pence = readMoney(amount);
    const count = /^\d+$/.test(quantity.trim()) ? Number(quantity.trim()) : null;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return setError('Enter the day of the line.');
    if (count === null || count > 10_000) return setError('Quantity must be a whole number from 0 to 10000.');
    if (pence === null) return setError('Enter the amount in pounds, e.g. 12.50 (a deduction may be written without a minus).');
    const signed = lineType === 'deduction' ? -Math.abs(pence) : pence;
    if (signed < 0 && lineType !== 'deduction' && lineType !== 'adjustment') return setError('Only a deduction or an adjustment takes money back.');
    setError(null);
    await saveTypedLine(handle, check, { date, lineType, band: lineType === 'parcel' && band !== '' ? band : null, quantity: count, rate: null, amount: signed, reference: reference.trim() });
    setAmount('');
    setReference('');
  }

  if (!open) {
    return (
      <Button variant="ghost" onClick={() => setOpen(true)}>
        <Plus aria-hidden="true" />
        Type a line
      </Button>
    );
  }
  return (
    <form className={styles.mapping} aria-labelledby={headingId} onSubmit={(e) => void onSubmit(e)}>
      <h3 id={headingId} className={styles.subtitle}>
        Type a line
      </h3>
      <div className={styles.grid}>
        <TextField label="Day" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        <SelectField label="Type" value={lineType} onChange={(e) => setLineType(e.target.value as LineType)}>
          {LINE_TYPES.map((type) => (
            <option key={type} value={type}>
              {LINE_TYPE_WORDS[type]}
            </option>
          ))}
        </SelectField>
        {lineType === 'parcel' ? (
          <SelectField label="Size band" optional value={band} onChange={(e) => setBand(e.target.value as SizeBand | '')}>
            <option value="">No band</option>
            {SIZE_BANDS.map((b) => (
              <option key={b} value={b}>
                {BAND_WORDS[b]}
              </option>
            ))}
          </SelectField>
        ) : null}
        <TextField label="Quantity" inputMode="numeric" value={quantity} onChange={(e) => setQuantity(e.target.value)} />
        <TextField label="Amount (£)" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
        <TextField label="Reference" optional value={reference} maxLength={100} onChange={(e) => setReference(e.target.value)} />
      </div>
      <FormAlert message={error} />
      <div className={styles.actions}>
        <Button variant="primary" type="submit">
          Add the line
        </Button>
        <Button variant="ghost" onClick={() => setOpen(false)}>
          Done
        </Button>
      </div>
    </form>
  );
}
