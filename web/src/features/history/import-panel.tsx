import { FileUp } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { SelectField } from '@/components/text-field';
import { readText } from '@/lib/read-text';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { newId } from '@/sync/ids';
import { importRecords, readCsvContext, readDeviceRecords } from './import-commands';
import { importIds } from './import-ids';
import type { DayOrder, DayReading } from './import-cells';
import { csvEntries, dayReading, readCsvTable, type CsvTable, type Delimiter } from './import-csv-entries';
import { detectLayout, mappingFor, mappingProblem, MAPPABLE_FIELDS, type ColumnMapping, type CsvLayout } from './import-csv-layouts';
import { idsAreOurs, readJsonExport } from './import-json';
import { countsText, planImport, totalAdded as total, type ImportPlan, type ParsedFile, type RowNote } from '@/core/import/import-plan';
import panel from '@/components/panel.module.css';
import styles from './import-panel.module.css';

/** Bigger than years of days; a larger file is not one of ours or a driver's sheet. */
const MAX_IMPORT_BYTES = 5_000_000;

/**
 * Where the file came from, so the plan can be made again from the device as it is at confirm
 * time. A CSV with dates like 03/04/2025 says how it reads them and can be read the other way.
 */
type Source = {
  fileName: string;
  what: string;
  parse: () => Promise<ParsedFile>;
  keepIds: boolean;
  dates?: { reading: DayReading; chosen: boolean; readAs: (order: DayOrder) => Source };
};

type Step =
  | { step: 'pick'; error: string | null }
  | { step: 'map'; fileName: string; table: CsvTable; mapping: ColumnMapping }
  | { step: 'preview'; source: Source; plan: ImportPlan; saving: boolean; error: string | null }
  | { step: 'done'; fileName: string; plan: ImportPlan };

const LAYOUT_WORDS: Record<CsvLayout, string> = {
  ours: 'a Delivery Tracker CSV export',
  original: "the original app's CSV",
  generic: 'a spreadsheet CSV',
};

// Said after the layout, so a driver sees how the file was split and how its amounts were read.
const DELIMITER_WORDS: Record<Delimiter, string> = {
  ',': '',
  ';': ', separated by semicolons, with amounts like 12,50',
  '\t': ', separated by tabs',
};

/**
 * Import beside Export: our JSON or CSV, the original app's CSV, or any CSV through a column
 * mapping. Nothing is written until the driver has seen the preview (new records, duplicates,
 * invalid rows) and confirmed; then everything in one transaction through the outbox.
 */
export function ImportPanel() {
  const handle = useSyncHandle();
  const headingId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<Step>({ step: 'pick', error: null });

  /** The plan against the device as it is now, with the ids another device would choose too. */
  async function makePlan(source: Source): Promise<ImportPlan> {
    const parsed = await source.parse();
    const derivedIds = await importIds(parsed, handle.db.userId);
    return planImport(parsed, await readDeviceRecords(handle.db), newId, { keepIds: source.keepIds, derivedIds });
  }

  async function preview(source: Source) {
    setState({ step: 'preview', source, plan: await makePlan(source), saving: false, error: null });
  }

  function csvSource(fileName: string, table: CsvTable, layout: CsvLayout, mapping: ColumnMapping, order?: DayOrder): Source {
    const detected = dayReading(table, mapping, layout);
    const reading = { ...detected, order: order ?? detected.order };
    return {
      fileName,
      what: `${LAYOUT_WORDS[layout]}${DELIMITER_WORDS[table.delimiter]}`,
      parse: async () => csvEntries(table, mapping, layout, await readCsvContext(handle.db), reading.order),
      keepIds: true,
      // Our own export always writes day first: nothing to choose.
      dates:
        reading.yearLast && layout !== 'ours'
          ? { reading, chosen: reading.order !== detected.order, readAs: (next) => csvSource(fileName, table, layout, mapping, next) }
          : undefined,
    };
  }

  async function pick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file can be picked again after fixing it
    if (!file) return;
    const fail = (error: string) => setState({ step: 'pick', error });
    if (file.size > MAX_IMPORT_BYTES) return fail('This file is too big to import (the limit is 5 MB).');
    let text: string;
    try {
      text = await readText(file);
    } catch {
      return fail('This file could not be read.');
    }
    if (file.name.toLowerCase().endsWith('.json') || text.trimStart().replace(/^\uFEFF/, '').startsWith('{')) {
      const result = readJsonExport(text);
      if ('error' in result) return fail(`${result.error}.`);
      const ours = idsAreOurs(result, handle.db.userId);
      return preview({ fileName: file.name, what: `a Delivery Tracker JSON export${ours ? '' : ' from another account'}`, parse: () => Promise.resolve(result), keepIds: ours });
    }
    let table: CsvTable;
    try {
      table = readCsvTable(text);
    } catch (error) {
      return fail(error instanceof Error && error.message === 'The file is empty' ? 'This file is empty.' : 'This file is not a CSV file that can be read.');
    }
    const layout = detectLayout(table.header);
    const mapping = mappingFor(layout, table.header);
    if (layout === 'generic') return setState({ step: 'map', fileName: file.name, table, mapping });
    return preview(csvSource(file.name, table, layout, mapping));
  }

  async function confirm(source: Source) {
    if (state.step !== 'preview') return;
    setState({ ...state, saving: true, error: null });
    try {
      // Planned again from the device as it is now: a sync since the preview may have brought some of these days.
      const plan = await makePlan(source);
      await importRecords(handle, plan.writes);
      setState({ step: 'done', fileName: source.fileName, plan });
    } catch {
      setState({ ...state, saving: false, error: 'Nothing was imported: the device could not save. Try again.' });
    }
  }

  const reset = () => setState({ step: 'pick', error: null });

  return (
    <section className={`${panel.panel} ${styles.import}`} aria-labelledby={headingId}>
      <div className={panel.panelHead}>
        <h2 id={headingId} className={panel.panelTitle}>
          <FileUp aria-hidden="true" />
          Import
        </h2>
      </div>
      <input ref={fileInput} type="file" accept=".csv,.json,text/csv,application/json" className="visually-hidden" aria-label="File to import" tabIndex={-1} onChange={(e) => void pick(e)} />
      {state.step === 'pick' ? (
        <>
          <p className={styles.hint}>
            Our CSV or JSON export, the original app&apos;s CSV (Date, Stops, Extra, Total) or any spreadsheet saved as CSV. You see what will be added before anything is saved.
          </p>
          <FormAlert message={state.error} />
          <div className={styles.actions}>
            <Button variant="secondary" onClick={() => fileInput.current?.click()}>
              <FileUp aria-hidden="true" />
              Choose a file
            </Button>
          </div>
        </>
      ) : state.step === 'map' ? (
        <MappingStep
          fileName={state.fileName}
          table={state.table}
          mapping={state.mapping}
          onChange={(mapping) => setState({ ...state, mapping })}
          onCancel={reset}
          onContinue={() => void preview(csvSource(state.fileName, state.table, 'generic', state.mapping))}
        />
      ) : state.step === 'preview' ? (
        <>
          <p className={styles.hint}>
            <strong className={styles.fileName}>{state.source.fileName}</strong> is {state.source.what}.
          </p>
          {state.source.dates ? <DateReading {...state.source.dates} disabled={state.saving} onSwitch={(source) => void preview(source)} /> : null}
          <PlanSummary plan={state.plan} />
          <FormAlert message={state.error} />
          <div className={styles.actions}>
            <Button disabled={state.saving || total(state.plan.added) === 0} onClick={() => void confirm(state.source)}>
              {total(state.plan.added) === 0 ? 'Nothing to import' : `Import ${total(state.plan.added)} ${total(state.plan.added) === 1 ? 'record' : 'records'}`}
            </Button>
            <Button variant="ghost" disabled={state.saving} onClick={reset}>
              Cancel
            </Button>
          </div>
        </>
      ) : (
        <>
          <p className={styles.result} role="status">
            {countsText(state.plan.added) ? `Imported ${countsText(state.plan.added) as string} from ${state.fileName}.` : `Nothing new in ${state.fileName}: nothing was imported.`}
            {notImportedText(state.plan)}
            {total(state.plan.added) > 0 ? ' They sync to your other devices like any change.' : ''}
          </p>
          {state.plan.invalid.length > 0 ? <RowList title="Rows not imported" rows={state.plan.invalid} /> : null}
          <div className={styles.actions}>
            <Button variant="secondary" onClick={reset}>
              Import another file
            </Button>
          </div>
        </>
      )}
    </section>
  );
}

/** " Not imported: 2 duplicates and 1 invalid row." — only the parts there are. */
function notImportedText({ duplicates, invalid }: ImportPlan): string {
  const parts = [
    duplicates.length > 0 ? `${duplicates.length} ${duplicates.length === 1 ? 'duplicate' : 'duplicates'}` : null,
    invalid.length > 0 ? `${invalid.length} invalid ${invalid.length === 1 ? 'row' : 'rows'}` : null,
  ].filter((part) => part !== null);
  return parts.length > 0 ? ` Not imported: ${parts.join(' and ')}.` : '';
}

const ORDER_WORDS: Record<DayOrder, { first: string; example: string }> = {
  dmy: { first: 'day first', example: '31/01/2026' },
  mdy: { first: 'month first', example: '01/31/2026' },
};

interface DateReadingProps {
  reading: DayReading;
  /** The driver switched from the detected reading. */
  chosen: boolean;
  readAs: (order: DayOrder) => Source;
  disabled: boolean;
  onSwitch: (source: Source) => void;
}

/** Which way 03/04/2025 was read (3 April or March 4), why, and the switch to the other way. */
function DateReading({ reading, chosen, readAs, disabled, onSwitch }: DateReadingProps) {
  const other: DayOrder = reading.order === 'dmy' ? 'mdy' : 'dmy';
  const why = chosen ? ', as you chose' : reading.settled ? ", as the file's dates show" : ': every date here could be read either way, so the UK reading is used';
  return (
    <div className={styles.reading}>
      <p className={styles.hint}>
        Dates are read {ORDER_WORDS[reading.order].first}, like {ORDER_WORDS[reading.order].example}
        {why}.
      </p>
      <Button variant="secondary" disabled={disabled} onClick={() => onSwitch(readAs(other))}>
        Read dates {ORDER_WORDS[other].first} instead
      </Button>
    </div>
  );
}

function PlanSummary({ plan }: { plan: ImportPlan }) {
  const added = countsText(plan.added);
  return (
    <div className={styles.summary}>
      <p className={styles.count}>{added ? `New: ${added}` : 'Nothing new to import.'}</p>
      {plan.duplicates.length > 0 ? (
        <details className={styles.details}>
          <summary>
            {plan.duplicates.length} {plan.duplicates.length === 1 ? 'duplicate' : 'duplicates'}, skipped
          </summary>
          <RowItems rows={plan.duplicates} />
        </details>
      ) : (
        <p className={styles.hint}>No duplicates.</p>
      )}
      {plan.invalid.length > 0 ? <RowList title={`${plan.invalid.length} invalid ${plan.invalid.length === 1 ? 'row' : 'rows'}, not imported`} rows={plan.invalid} /> : <p className={styles.hint}>No invalid rows.</p>}
    </div>
  );
}

function RowList({ title, rows }: { title: string; rows: readonly RowNote[] }) {
  const id = useId();
  return (
    <div className={styles.invalid}>
      <h3 id={id} className={styles.listTitle}>
        {title}
      </h3>
      <RowItems rows={rows} labelledBy={id} />
    </div>
  );
}

function RowItems({ rows, labelledBy }: { rows: readonly RowNote[]; labelledBy?: string }) {
  return (
    <ul className={styles.rows} aria-labelledby={labelledBy}>
      {rows.map((row, i) => (
        <li key={`${row.place}-${i}`}>
          <strong>{row.place}</strong> {row.reason}
        </li>
      ))}
    </ul>
  );
}

interface MappingStepProps {
  fileName: string;
  table: CsvTable;
  mapping: ColumnMapping;
  onChange: (mapping: ColumnMapping) => void;
  onCancel: () => void;
  onContinue: () => void;
}

function MappingStep({ fileName, table, mapping, onChange, onCancel, onContinue }: MappingStepProps) {
  const problem = mappingProblem(mapping);
  const sample = table.rows[0]?.cells ?? [];
  return (
    <>
      <p className={styles.hint}>
        Which column of <strong className={styles.fileName}>{fileName}</strong> holds what? Dates as dd/mm/yyyy, mm/dd/yyyy or yyyy-mm-dd (the preview says which reading it
        used); amounts in pounds. A day with no courier goes to your first courier, and its total is kept as the file says.
      </p>
      <div className={styles.mapping}>
        {MAPPABLE_FIELDS.map(({ field, label, required }) => (
          <SelectField
            key={field}
            label={label}
            optional={!required}
            value={mapping[field] === null ? '' : String(mapping[field])}
            onChange={(event) => onChange({ ...mapping, [field]: event.target.value === '' ? null : Number(event.target.value) })}
          >
            <option value="">{required ? 'Choose a column' : 'Not in the file'}</option>
            {table.header.map((name, index) => (
              <option key={index} value={index}>
                {name || `Column ${index + 1}`}
                {sample[index] ? ` (e.g. ${sample[index].slice(0, 20)})` : ''}
              </option>
            ))}
          </SelectField>
        ))}
      </div>
      {problem ? <p className={styles.hint}>{problem}</p> : null}
      <div className={styles.actions}>
        <Button disabled={problem !== null} onClick={onContinue}>
          Preview import
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </>
  );
}
