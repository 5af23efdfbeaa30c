// A line typed from a paper or on-screen statement: the same record an import makes, with its
// own key so it is never mistaken for a file's row.
import { Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { SelectField, TextField } from '@/components/text-field';
import { LINE_TYPES, SIZE_BANDS } from '@/core/statement-lines/read-lines';
import { useRefusedFields } from '@/lib/sync-react/use-refused-fields';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useForm } from '@/lib/use-form';
import type { LineType, SizeBand } from '@/sync/contract.generated';
import type { LocalStatementCheck } from '@/sync/types';
import { saveTypedLine } from './commands';
import { blankTypedLine, MAX_LINE_REFERENCE_CHARS, typedLineSchema, type TypedLine } from './typed-line-form-schema';
import { BAND_WORDS, LINE_TYPE_WORDS } from './words';
import styles from './statement-lines.module.css';

export function TypedLineForm({ check }: { check: LocalStatementCheck }) {
  const handle = useSyncHandle();
  const headingId = useId();
  const [open, setOpen] = useState(false);
  // The line added last: when the server refuses it, its problems show beside these fields.
  const [added, setAdded] = useState<string | undefined>(undefined);
  const refused = useRefusedFields(added);
  const { values, errors, failure, submit, setField, reset } = useForm({
    refused,
    schema: typedLineSchema,
    initial: () => blankTypedLine(check.periodStart),
    command: (line: TypedLine) => saveTypedLine(handle, check, line),
    // The day, type and quantity stay for the next line of the same kind.
    onSuccess: (id) => {
      setAdded(id);
      reset({ ...values, amount: '', reference: '' });
    },
    failure: () => 'Failed to add the line',
  });

  if (!open) {
    return (
      <Button variant="ghost" onClick={() => setOpen(true)}>
        <Plus aria-hidden="true" />
        Type a line
      </Button>
    );
  }
  return (
    <form className={styles.mapping} aria-labelledby={headingId} onSubmit={(e) => void submit(e)} noValidate>
      <h3 id={headingId} className={styles.subtitle}>
        Type a line
      </h3>
      <div className={styles.grid}>
        <TextField label="Day" type="date" value={values.date} error={errors.date} onChange={(e) => setField('date', e.target.value)} />
        <SelectField label="Type" value={values.lineType} error={errors.lineType} onChange={(e) => setField('lineType', e.target.value as LineType)}>
          {LINE_TYPES.map((type) => (
            <option key={type} value={type}>
              {LINE_TYPE_WORDS[type]}
            </option>
          ))}
        </SelectField>
        {values.lineType === 'parcel' ? (
          <SelectField label="Size band" optional value={values.band} error={errors.band} onChange={(e) => setField('band', e.target.value as SizeBand | '')}>
            <option value="">No band</option>
            {SIZE_BANDS.map((b) => (
              <option key={b} value={b}>
                {BAND_WORDS[b]}
              </option>
            ))}
          </SelectField>
        ) : null}
        <TextField label="Quantity" inputMode="numeric" value={values.quantity} error={errors.quantity} onChange={(e) => setField('quantity', e.target.value)} />
        <TextField label="Amount (£)" inputMode="decimal" value={values.amount} error={errors.amount} onChange={(e) => setField('amount', e.target.value)} />
        <TextField
          label="Reference"
          optional
          maxLength={MAX_LINE_REFERENCE_CHARS}
          value={values.reference}
          error={errors.reference}
          onChange={(e) => setField('reference', e.target.value)}
        />
      </div>
      <FormAlert message={failure} />
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
