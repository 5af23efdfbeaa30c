// A courier's statement file imported into a check's lines. A courier whose file layout is
// saved imports in one tap; a new layout (or one that lost a column) opens the mapping step,
// suggested from the headings, which is saved with the lines. Everything happens on the device,
// so it works offline; the lines sync like any record.
import { FileUp } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { SelectField } from '@/components/text-field';
import { readLines, readStatementTable, missingColumns, LINE_TYPES, MAX_STATEMENT_BYTES, SIZE_BANDS, type StatementTable } from '@/core/statement-lines/read-lines';
import { suggestFormat } from '@/core/statement-lines/suggest-format';
import { isPdf } from '@/core/statement-lines/pdf-table';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { contentOf } from '@/sync/records';
import type { DateOrder, FormatSource, LineType, SizeBand } from '@/sync/contract.generated';
import type { LocalStatementCheck, StatementFormatContent } from '@/sync/types';
import { importStatementLines } from './commands';
import { useStatementFormats } from './use-statement-lines';
import { BAND_WORDS, LINE_TYPE_WORDS } from './words';
import styles from './statement-lines.module.css';

type Column = 'dateColumn' | 'amountColumn' | 'typeColumn' | 'bandColumn' | 'quantityColumn' | 'rateColumn' | 'referenceColumn';
const COLUMNS: readonly { column: Column; label: string; required: boolean }[] = [
  { column: 'dateColumn', label: 'Date', required: true },
  { column: 'amountColumn', label: 'Amount', required: true },
  { column: 'typeColumn', label: 'Type of line', required: false },
  { column: 'bandColumn', label: 'Size band', required: false },
  { column: 'quantityColumn', label: 'Quantity', required: false },
  { column: 'rateColumn', label: 'Rate', required: false },
  { column: 'referenceColumn', label: 'Reference', required: false },
];
const DATE_ORDERS: Record<DateOrder, string> = { dayMonthYear: 'Day first (31/03/2025)', monthDayYear: 'Month first (03/31/2025)', yearMonthDay: 'Year first (2025-03-31)' };

function linesText(n: number): string {
  return `${n} ${n === 1 ? 'line' : 'lines'}`;
}

export function StatementImport({ check }: { check: LocalStatementCheck }) {
  const handle = useSyncHandle();
  const formats = useStatementFormats();
  const savedOf = (source: FormatSource) => formats?.find((f) => f.courierId === check.courierId && f.source === source);
  const saved = savedOf('csv') ?? savedOf('pdf');
  const input = useRef<HTMLInputElement>(null);
  const [table, setTable] = useState<StatementTable | null>(null);
  const [mapping, setMapping] = useState<StatementFormatContent | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const headingId = useId();

  async function importWith(read: StatementTable, format: StatementFormatContent) {
    const { rows, problems } = readLines(read, format);
    if (rows.length === 0) {
      setError(problems.length > 0 ? `No line could be read. Row ${problems[0]!.row}: ${problems[0]!.problem}.` : 'The file has no lines under its headings.');
      return;
    }
    setBusy(true);
    try {
      const result = await importStatementLines(handle, check, rows, format);
      const skipped = problems.length > 0 ? ` ${problems.length} ${problems.length === 1 ? 'row was' : 'rows were'} not read: row ${problems[0]!.row}: ${problems[0]!.problem}.` : '';
      setMessage(
        result.lines.length === 0
          ? `Nothing new: all ${linesText(result.already)} of this file are already on this statement.${skipped}`
          : `Added ${linesText(result.lines.length)}${result.already > 0 ? ` (${linesText(result.already)} already here)` : ''}.${skipped}`,
      );
      setTable(null);
      setMapping(null);
    } finally {
      setBusy(false);
    }
  }

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    setMessage(null);
    setError(null);
    if (!file) return;
    if (file.size > MAX_STATEMENT_BYTES) {
      setError('This file is too big to be a statement (over 2 MB).');
      return;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const source: FormatSource = isPdf(bytes) ? 'pdf' : 'csv';
    let read: StatementTable;
    try {
      if (source === 'pdf') {
        // pdfjs-dist loads only now, the first time a PDF is picked (precached for offline).
        const { readPdfTable } = await import('./read-pdf');
        read = await readPdfTable(bytes);
      } else {
        read = readStatementTable(new TextDecoder().decode(bytes));
      }
    } catch {
      setError(
        source === 'pdf'
          ? 'This PDF has no table of text to read (a scanned statement is a picture). Save the statement as CSV, or type its lines.'
          : 'This file could not be read as CSV. Save the statement as CSV and try again.',
      );
      return;
    }
    const layout = savedOf(source);
    const format = layout && missingColumns(layout, read.header).length === 0 ? layout : null;
    if (format) {
      await importWith(read, contentOf('statementFormat', format));
      return;
    }
    setTable(read);
    setMapping({ ...suggestFormat(read, check.courierId), source });
  }

  const set = <K extends keyof StatementFormatContent>(key: K, value: StatementFormatContent[K]) => setMapping((m) => (m ? { ...m, [key]: value } : m));
  const preview = table && mapping ? readLines(table, mapping) : null;

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.title}>
        Import the statement file
      </h2>
      <p className={styles.hint}>
        {savedOf('csv') && savedOf('pdf')
          ? 'This courier’s CSV and PDF layouts are saved: choose the file and its lines are added.'
          : saved
            ? `This courier’s ${saved.source === 'pdf' ? 'PDF' : 'CSV'} layout is saved: such a file is added in one tap; the other kind is matched once.`
            : 'Choose the courier’s statement, CSV or PDF. You match its columns once; next time it is one tap.'}
      </p>
      <input ref={input} className={styles.fileInput} type="file" accept=".csv,.pdf,text/csv,text/plain,application/pdf" aria-label="Statement file (CSV or PDF)" onChange={(e) => void onFile(e)} />
      <Button variant="secondary" onClick={() => input.current?.click()} disabled={busy}>
        <FileUp aria-hidden="true" />
        Choose CSV or PDF file
      </Button>
      <FormAlert message={error} />
      {message ? (
        <p className={styles.done} role="status">
          {message}
        </p>
      ) : null}
      {table && mapping && preview ? (
        <div className={styles.mapping} role="group" aria-label="Match the file's columns">
          <h3 className={styles.subtitle}>Match the file’s columns</h3>
          <TablePreview table={table} pdf={mapping.source === 'pdf'} />
          <div className={styles.grid}>
            {COLUMNS.map(({ column, label, required }) => (
              <SelectField key={column} label={label} optional={!required} value={mapping[column] ?? ''} onChange={(e) => set(column, (e.target.value || null) as never)}>
                {required ? null : <option value="">Not in the file</option>}
                {table.header.map((heading) => (
                  <option key={heading} value={heading}>
                    {heading}
                  </option>
                ))}
              </SelectField>
            ))}
            <SelectField label="Dates are written" value={mapping.dateOrder} onChange={(e) => set('dateOrder', e.target.value as DateOrder)}>
              {Object.entries(DATE_ORDERS).map(([order, words]) => (
                <option key={order} value={order}>
                  {words}
                </option>
              ))}
            </SelectField>
            <SelectField label="A row with no type is" value={mapping.defaultType} onChange={(e) => set('defaultType', e.target.value as LineType)}>
              {LINE_TYPES.map((type) => (
                <option key={type} value={type}>
                  {LINE_TYPE_WORDS[type]}
                </option>
              ))}
            </SelectField>
          </div>
          <label className={styles.check}>
            <input type="checkbox" checked={mapping.deductionsPositive} onChange={(e) => set('deductionsPositive', e.target.checked)} />
            Deductions are written without a minus (take them off)
          </label>
          {mapping.typeWords.length > 0 ? (
            <fieldset className={styles.words}>
              <legend className={styles.subtitle}>What each type in the file is</legend>
              {mapping.typeWords.map((word, index) => (
                <div key={word.word} className={styles.wordRow}>
                  <SelectField
                    label={`“${word.word}”`}
                    value={word.lineType}
                    onChange={(e) => set('typeWords', mapping.typeWords.map((w, i) => (i === index ? { ...w, lineType: e.target.value as LineType, band: e.target.value === 'parcel' ? w.band : null } : w)))}
                  >
                    {LINE_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {LINE_TYPE_WORDS[type]}
                      </option>
                    ))}
                  </SelectField>
                  {word.lineType === 'parcel' && mapping.bandColumn === null ? (
                    <SelectField
                      label={`Band of “${word.word}”`}
                      optional
                      value={word.band ?? ''}
                      onChange={(e) => set('typeWords', mapping.typeWords.map((w, i) => (i === index ? { ...w, band: (e.target.value || null) as SizeBand | null } : w)))}
                    >
                      <option value="">No band</option>
                      {SIZE_BANDS.map((band) => (
                        <option key={band} value={band}>
                          {BAND_WORDS[band]}
                        </option>
                      ))}
                    </SelectField>
                  ) : null}
                </div>
              ))}
            </fieldset>
          ) : null}
          <p className={styles.hint} role="status">
            {linesText(preview.rows.length)} read
            {preview.problems.length > 0 ? `; ${preview.problems.length} not: row ${preview.problems[0]!.row}: ${preview.problems[0]!.problem}` : ''}.
          </p>
          <div className={styles.actions}>
            <Button variant="primary" disabled={busy || preview.rows.length === 0} onClick={() => void importWith(table, mapping)}>
              Save the layout and import {linesText(preview.rows.length)}
            </Button>
            <Button
              variant="ghost"
              onClick={() => {
                setTable(null);
                setMapping(null);
              }}
            >
              Cancel
            </Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}


/** The file's first rows as read (a PDF's text split into columns), so the driver sees what each heading holds. */
function TablePreview({ table, pdf }: { table: StatementTable; pdf: boolean }) {
  const shown = table.rows.slice(0, 4);
  return (
    <>
      <p className={styles.hint}>{pdf ? 'The PDF’s text, split into columns under its headings:' : 'The file’s first rows:'}</p>
      <div className={styles.preview} role="region" aria-label="The file's first rows" tabIndex={0}>
      <table className={styles.previewTable}>
        <thead>
          <tr>
            {table.header.map((heading, i) => (
              <th key={i} scope="col">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map(({ row, cells }) => (
            <tr key={row}>
              {table.header.map((_, i) => (
                <td key={i}>{cells[i] ?? ''}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </>
  );
}
