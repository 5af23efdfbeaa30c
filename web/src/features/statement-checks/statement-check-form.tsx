import { FileUp } from 'lucide-react';
import { useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { Button } from '@/components/button';
import { FormActions } from '@/components/form-actions';
import { FormAlert } from '@/components/form-alert';
import { SelectField, TextAreaField, TextField } from '@/components/text-field';
import { periodWords, type PayPeriod } from '@/core/pay-periods/pay-period';
import { readText } from '@/lib/read-text';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useRefusedFields } from '@/lib/sync-react/use-refused-fields';
import { useForm } from '@/lib/use-form';
import type { LocalStatementCheck } from '@/sync/types';
import { saveCheck } from './commands';
import { blankStatementCheckForm, statementCheckFormOf, statementCheckFormSchema, MAX_NOTE_CHARS, MAX_REFERENCE_CHARS, STATUSES, type StatementFormValue } from './statement-check-form-schema';
import { csvMessages, MAX_STATEMENT_CSV_BYTES, readStatementCsv } from './statement-csv';
import type { StatementCheck } from '@/core/statements/statement-check';
import { StatementComparison, StatementResultBadge } from './statement-comparison';
import panel from '@/components/panel.module.css';
import styles from './statement-checks.module.css';

interface StatementCheckFormProps {
  courierId: string;
  period: PayPeriod;
  /** The check being edited, or undefined for a new one. */
  editing?: LocalStatementCheck | undefined;
  /** Compares what is typed with the log: shown live, before the check is saved. */
  compare: (figures: StatementFormValue) => StatementCheck;
  onSaved: (check: LocalStatementCheck) => void;
  onCancel: () => void;
}

type Imported = { kind: 'read'; text: string } | { kind: 'error'; text: string };


/** What the courier's statement says for one pay period; saved on the device and synced. */
export function StatementCheckForm({ courierId, period, editing, compare, onSaved, onCancel }: StatementCheckFormProps) {
  const handle = useSyncHandle();
  const refused = useRefusedFields(editing?.id);
  const form = useForm({
    refused,
    schema: statementCheckFormSchema,
    initial: () => (editing ? statementCheckFormOf(editing) : blankStatementCheckForm(period)),
    command: (check) => saveCheck(handle, editing?.courierId ?? courierId, check, editing?.id),
    onSuccess: (saved) => onSaved(saved),
    failure: () => 'Failed to save the statement check',
  });
  const { values, errors, setField: update } = form;
  const headingId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [imported, setImported] = useState<Imported | null>(null);

  // The comparison as the driver types: whenever the figures read as a statement.
  const live = useMemo(() => {
    const parsed = statementCheckFormSchema.safeParse(values);
    return parsed.success ? compare(parsed.data) : null;
  }, [values, compare]);

  async function importFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file can be picked again after fixing it
    if (!file) return;
    if (file.size > MAX_STATEMENT_CSV_BYTES) {
      setImported({ kind: 'error', text: csvMessages.tooBig });
      return;
    }
    let text: string;
    try {
      text = await readText(file);
    } catch {
      setImported({ kind: 'error', text: csvMessages.unreadable });
      return;
    }
    const result = readStatementCsv(text);
    if (!result.ok) {
      setImported({ kind: 'error', text: result.error });
      return;
    }
    for (const field of ['paid', 'stops', 'parcels', 'collections', 'deductions'] as const) update(field, result.values[field] ?? '');
    const rows = result.rows === 1 ? '1 row' : `${result.rows} rows added together`;
    setImported({ kind: 'read', text: `Read ${rows} from ${file.name}. Check the figures, then save.` });
  }

  const words = periodWords(period);
  return (
    <form className={`${panel.panel} ${styles.statementForm}`} aria-labelledby={headingId} onSubmit={(event) => void form.submit(event)} noValidate>
      <div className={panel.panelHead}>
        <h4 id={headingId} className={styles.formTitle}>
          {editing ? 'Edit statement check' : 'Check statement'} {words}
        </h4>
        <Button variant="ghost" onClick={() => fileInput.current?.click()}>
          <FileUp aria-hidden="true" />
          Import CSV
        </Button>
        <input ref={fileInput} type="file" accept=".csv,text/csv" className="visually-hidden" aria-label="Statement CSV file" tabIndex={-1} onChange={(e) => void importFile(e)} />
      </div>
      {imported ? (
        <p className={imported.kind === 'error' ? styles.importError : styles.hint} role={imported.kind === 'error' ? 'alert' : 'status'}>
          {imported.text}
        </p>
      ) : (
        <p className={styles.hint}>Enter what the statement says, or import it from a CSV file. Only the net paid is needed: the gross is worked out as net + deductions.</p>
      )}
      <div className={styles.formGrid}>
        <TextField
          label="Net paid, after deductions (£)"
          type="text"
          inputMode="decimal"
          required
          placeholder="0.00"
          value={values.paid}
          error={errors.paid}
          onChange={(e) => update('paid', e.target.value)}
        />
        <TextField
          label="Deductions taken (£)"
          optional
          type="text"
          inputMode="decimal"
          placeholder="0.00"
          value={values.deductions}
          error={errors.deductions}
          onChange={(e) => update('deductions', e.target.value)}
        />
        <TextField label="Stops" optional type="text" inputMode="numeric" value={values.stops} error={errors.stops} onChange={(e) => update('stops', e.target.value)} />
        <TextField label="Parcels" optional type="text" inputMode="numeric" value={values.parcels} error={errors.parcels} onChange={(e) => update('parcels', e.target.value)} />
        <TextField
          label="Collections"
          optional
          type="text"
          inputMode="numeric"
          value={values.collections}
          error={errors.collections}
          onChange={(e) => update('collections', e.target.value)}
        />
      </div>
      <section className={styles.live} aria-label="Compared with your log">
        <div className={styles.liveHead}>
          <h5 className={styles.liveTitle}>Compared with your log</h5>
          {live ? <StatementResultBadge result={live} /> : null}
        </div>
        {live ? <StatementComparison result={live} /> : <p className={styles.hint}>Enter the net paid to compare it with your log.</p>}
      </section>
      <SelectField label="Your status" value={values.status} error={errors.status} onChange={(e) => update('status', e.target.value as StatementFormValue['status'])}>
        {STATUSES.map((status) => (
          <option key={status.value} value={status.value}>
            {status.label}
          </option>
        ))}
      </SelectField>
      <TextAreaField label="Note" optional rows={2} maxLength={MAX_NOTE_CHARS} value={values.note} error={errors.note} onChange={(e) => update('note', e.target.value)} />
      <TextField
        label="Reference"
        optional
        maxLength={MAX_REFERENCE_CHARS}
        placeholder="e.g. statement number"
        value={values.reference}
        error={errors.reference}
        onChange={(e) => update('reference', e.target.value)}
      />
      {errors.periodStart || errors.periodEnd ? <FormAlert message={errors.periodStart ?? errors.periodEnd ?? ''} /> : null}
      {form.failure ? <FormAlert message={form.failure} /> : null}
      <FormActions submitLabel={editing ? 'Save changes' : 'Save check'} submitting={form.submitting} onCancel={onCancel} />
    </form>
  );
}
