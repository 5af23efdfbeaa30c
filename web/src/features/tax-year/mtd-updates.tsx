// Each quarter's Making Tax Digital update, ready to send through bridging software: the
// cumulative figures exactly as HMRC's createAmendCumulativePeriodSummary carries them, each one
// tap from the records behind it, and the files (the request JSON, the per-record CSV and a
// one-page printed summary), all made on the device so they work offline.
import { Download, Printer } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import { Button } from '@/components/button';
import { changedAfter, recordsBehind, type FigureKey, type RecordLine } from '@/core/mtd/behind';
import { changesSinceSent, standingSent, type FigureChange } from '@/core/mtd/sent';
import { yearEndChecklist } from '@/core/mtd/checklist';
import { uncarriedChanges } from '@/core/mtd/uncarried';
import type { YearStatementChecks } from '@/core/statements/year-checks';
import { Link } from 'react-router';
import { finalDeclarationDue } from '@/core/mtd/quarters';
import { FormAlert } from '@/components/form-alert';
import { TextField } from '@/components/text-field';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { markAsSent } from '@/features/sent-updates/commands';
import { BOUNDS } from '@/sync/contract.generated';
import type { LocalSentUpdate } from '@/sync/types';
import { consolidatedOffered, figureLabel, figureList, updateFigures, updateFileName, updateJson, type ExpensesShape } from '@/core/mtd/update';
import { downloadText } from '@/lib/download';
import { formatPence, formatShortDate } from '@/lib/format';
import type { QuarterTotals, TaxRecords, TaxSummary } from '@/core/tax/tax-summary';
import { formatDayMonth, formatLongDate } from './long-date';
import { recordsCsv } from './tax-csv';
import { Section } from './tax-year-sections';
import styles from './tax-year-page.module.css';


interface MtdUpdatesProps {
  summary: TaxSummary;
  records: TaxRecords;
  today: string;
  sentUpdates: readonly LocalSentUpdate[];
  /** Vehicles whose method is still open: no earlier year kept it, no sent update fixed it. */
  openVehicleNames: string[];
  statementChecks: YearStatementChecks;
}

export function MtdUpdatesSection({ summary, records, today, sentUpdates, openVehicleNames, statementChecks }: MtdUpdatesProps) {
  const offered = consolidatedOffered(summary.year, summary.totals.turnover);
  const [chosen, setChosen] = useState<ExpensesShape>('itemised');
  const shape = offered ? chosen : 'itemised';
  const [printing, setPrinting] = useState<number | null>(null);
  const shapeId = useId();
  const open = summary.quarters.filter((quarter) => quarter.status !== 'notStarted');

  // Mark the quarter's card (print CSS keeps only it), print, then clear the mark.
  function print(quarter: number) {
    flushSync(() => setPrinting(quarter));
    window.print();
    setPrinting(null);
  }

  return (
    <Section id="tax-updates" title="Quarterly updates">
      <p className={styles.muted}>
        Each update as HMRC&rsquo;s software takes it, cumulative since {formatDayMonth(summary.quarters[0]?.periodStart ?? summary.from)}. Import the
        JSON or CSV into your bridging software: importing counts as a digital link, retyping does not.
      </p>
      {offered ? (
        <fieldset className={`${styles.shapeChoice} ${styles.noPrint}`} aria-describedby={shapeId}>
          <legend className={styles.label}>Expenses in the update</legend>
          {(['itemised', 'consolidated'] as const).map((option) => (
            <label key={option} className={styles.radio}>
              <input type="radio" name="update-shape" value={option} checked={shape === option} onChange={() => setChosen(option)} />
              {option === 'itemised' ? "Itemised in HMRC's categories" : 'One total of allowable expenses'}
            </label>
          ))}
          <span id={shapeId} className={styles.rowHint}>
            Your turnover so far is under £90,000, so one total is allowed. Never both.
          </span>
        </fieldset>
      ) : (
        <p className={styles.muted}>Your turnover is £90,000 or more this year, so the expenses go itemised.</p>
      )}
      {open.length === 0 ? <p className={styles.muted}>No quarter has started yet.</p> : null}
      <ol className={styles.updates} aria-label="Updates">
        {open.map((quarter) => (
          <UpdateCard
            key={quarter.number}
            summary={summary}
            quarter={quarter}
            records={records}
            shape={shape}
            sent={standingSent(sentUpdates, summary.year, quarter.number)}
            today={today}
            printed={printing === quarter.number}
            onPrint={() => print(quarter.number)}
          />
        ))}
      </ol>
      <YearEnd summary={summary} records={records} today={today} sentUpdates={sentUpdates} openVehicleNames={openVehicleNames} statementChecks={statementChecks} />
    </Section>
  );
}

/** The year-end checklist, and what the final declaration needs that this app does not hold. */
function YearEnd({ summary, records, today, sentUpdates, openVehicleNames, statementChecks }: MtdUpdatesProps) {
  const items = yearEndChecklist({
    year: summary.year,
    quarters: summary.quarters.map((quarter) => ({ number: quarter.number, sent: standingSent(sentUpdates, summary.year, quarter.number) !== null })),
    uncarried: uncarriedChanges(records, sentUpdates, today).find((change) => change.year === summary.year) ?? null,
    openVehicles: openVehicleNames,
    statementChecks,
    expensesWithoutReceipts: records.expenses.filter((e) => e.deleted !== 1 && e.date >= summary.from && e.date <= summary.to && e.receipts.length === 0).length,
  });
  const due = finalDeclarationDue(summary.year);
  return (
    <div className={styles.yearEnd}>
      <h3 className={styles.quarterTitle}>Before the final declaration</h3>
      <ul className={styles.checklist} aria-label="Year-end checklist">
        {items.map((item) => (
          <li key={item.id} data-done={item.done ? true : undefined}>
            <span aria-hidden="true">{item.done ? '✓' : '!'}</span> <span className="visually-hidden">{item.done ? 'Done: ' : 'To do: '}</span>
            {item.text}
            {item.link ? (
              <>
                {' '}
                <Link className={styles.checklistLink} to={item.link.to}>
                  {item.link.label}
                </Link>
              </>
            ) : null}
          </li>
        ))}
      </ul>
      <p className={styles.muted}>
        The final declaration{due ? `, due ${formatLongDate(due)},` : ''} can be made in other software. It needs what this app does not hold: other income
        (employment, property, savings, pensions), reliefs and allowances you claim, losses brought forward, and payments already made. From this app, for{' '}
        {summary.year.replace('-', '–')}:
      </p>
      <ul className={styles.rows} aria-label="Figures for the final declaration">
        <li className={styles.row}>
          <span className={styles.rowLabel}>Turnover</span>
          <span className={styles.amount}>{formatPence(summary.totals.turnover)}</span>
        </li>
        <li className={styles.row}>
          <span className={styles.rowLabel}>Allowable expenses and mileage</span>
          <span className={styles.amount}>{formatPence(summary.totals.allowable)}</span>
        </li>
        <li className={styles.row}>
          <span className={styles.rowLabel}>Profit</span>
          <span className={styles.amount}>{formatPence(summary.totals.profit)}</span>
        </li>
      </ul>
    </div>
  );
}

interface UpdateCardProps {
  summary: TaxSummary;
  quarter: QuarterTotals;
  records: TaxRecords;
  shape: ExpensesShape;
  sent: LocalSentUpdate | null;
  today: string;
  printed: boolean;
  onPrint: () => void;
}

function UpdateCard({ summary, quarter, records, shape: chosen, sent, today, printed, onPrint }: UpdateCardProps) {
  // Once sent, the quarter is shown (and compared) in the shape it was sent in.
  const shape = sent?.shape ?? chosen;
  const period = useMemo(() => ({ year: summary.year, from: quarter.periodStart, to: quarter.to, totals: quarter.totals }), [summary.year, quarter]);
  const figures = useMemo(() => updateFigures({ year: summary.year, periodStart: quarter.periodStart, periodEnd: quarter.to, totals: quarter.totals }, shape, summary.totals.turnover), [summary, quarter, shape]);
  const behind = useMemo(() => recordsBehind(period, records), [period, records]);
  const name = `Q${quarter.number} update`;
  const json = updateJson(figures);
  const changes = useMemo(() => (sent ? changesSinceSent(sent.file, json) : []), [sent, json]);
  const changedRecords = useMemo(() => (sent && changes.length > 0 ? changedAfter(period, records, sent.createdAt) : []), [sent, changes, period, records]);
  return (
    <li className={styles.update} aria-label={name} data-printed={printed ? true : undefined}>
      <div className={styles.quarterHead}>
        <h3 className={styles.quarterTitle}>
          Q{quarter.number} {summary.year.replace('-', '–')}: {formatDayMonth(quarter.periodStart)} – {formatDayMonth(quarter.to)}
        </h3>
        <span className={styles.rowHint}>Due {formatLongDate(quarter.due)}</span>
      </div>
      <ul className={styles.rows} aria-label={`${name} figures`}>
        {figureList(figures).map(({ key, group, amount }) => (
          <Figure key={key} field={key} group={group} amount={amount} lines={behind.get(key) ?? []} />
        ))}
      </ul>
      <div className={`${styles.exports} ${styles.noPrint}`}>
        <Button variant="secondary" aria-label={`Q${quarter.number} JSON for HMRC`} onClick={() => downloadText(updateFileName(summary.year, quarter.number, 'json'), json, 'application/json')}>
          <Download aria-hidden="true" />
          JSON for HMRC
        </Button>
        <Button
          variant="secondary"
          aria-label={`Q${quarter.number} records CSV`}
          onClick={() => downloadText(updateFileName(summary.year, quarter.number, 'csv'), recordsCsv(period, records), 'text/csv;charset=utf-8')}
        >
          <Download aria-hidden="true" />
          Records CSV
        </Button>
        <Button variant="secondary" aria-label={`Print the Q${quarter.number} summary`} onClick={onPrint}>
          <Printer aria-hidden="true" />
          Print summary
        </Button>
      </div>
      {sent ? <SentNote sent={sent} changes={changes} records={changedRecords} quarter={quarter.number} /> : null}
      {!sent || changes.length > 0 ? (
        <MarkSentForm
          key={sent?.id ?? 'first'}
          quarter={quarter}
          year={summary.year}
          election={summary.election}
          shape={shape}
          file={json}
          today={today}
          supersedes={sent}
        />
      ) : null}
    </li>
  );
}

const money = (pence: number) => formatPence(pence);

function SentNote({ sent, changes, records, quarter }: { sent: LocalSentUpdate; changes: FigureChange[]; records: RecordLine[]; quarter: number }) {
  return (
    <div className={styles.sent} role="status" aria-label={`Q${quarter} sent`}>
      <p>
        <strong>Sent</strong> on {formatLongDate(sent.sentOn)} with {sent.product}
        {sent.reference ? `, reference ${sent.reference}` : ''}.
      </p>
      <p className={styles.rowHint}>SHA-256 of the file sent: {sent.sha256}</p>
      {changes.length > 0 ? (
        <div className={styles.warning} role="note" aria-label={`Q${quarter} changed since sent`}>
          <p>
            <strong>Changed since sent.</strong> Your records for this period now give different figures. The change goes into your next cumulative update
            (its file already includes it); this quarter&rsquo;s update is not sent again.
          </p>
          <ul className={styles.rows} aria-label={`Q${quarter} differences`}>
            {changes.map((change) => (
              <li key={change.field} className={styles.row}>
                <span className={styles.rowLabel}>
                  <span>{figureLabel(change.field)}</span>
                  <span className={styles.rowHint}>
                    sent {money(change.sent)}, now {money(change.now)}
                  </span>
                </span>
                <span className={styles.amount}>
                  {change.now - change.sent > 0 ? '+' : ''}
                  {money(change.now - change.sent)}
                </span>
              </li>
            ))}
          </ul>
          {records.length > 0 ? (
            <ul className={styles.behind} aria-label={`Q${quarter} records changed since sent`}>
              {records.map((line) => (
                <li key={`${line.kind}:${line.recordId}`}>
                  <span>
                    {formatShortDate(line.date)} {line.text}
                  </span>
                  {line.amount ? <span className={styles.amount}>{money(line.amount)}</span> : null}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

interface MarkSentFormProps {
  quarter: QuarterTotals;
  year: TaxSummary['year'];
  election: TaxSummary['election'];
  shape: ExpensesShape;
  file: string;
  today: string;
  supersedes: LocalSentUpdate | null;
}

/** "Mark as sent": the bridging product (kept from the last one), the reference HMRC's software gave, the day. */
function MarkSentForm({ quarter, year, election, shape, file, today, supersedes }: MarkSentFormProps) {
  const handle = useSyncHandle();
  const [product, setProduct] = useState(supersedes?.product ?? '');
  const [reference, setReference] = useState('');
  const [sentOn, setSentOn] = useState(today);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!product.trim()) {
      setError('Say which bridging software you sent it with');
      return;
    }
    setError(null);
    setSaving(true);
    try {
      await markAsSent(handle, {
        year,
        quarter: quarter.number,
        quarters: election,
        periodStart: quarter.periodStart,
        periodEnd: quarter.to,
        shape,
        file,
        sentOn,
        product,
        reference,
        supersedes: supersedes?.id ?? null,
      });
    } catch {
      setError('Failed to save: try again');
    } finally {
      setSaving(false);
    }
  }
  const label = supersedes ? `Mark Q${quarter.number} as sent again` : `Mark Q${quarter.number} as sent`;
  return (
    <form className={`${styles.markSent} ${styles.noPrint}`} aria-label={label} onSubmit={(event) => void submit(event)} noValidate>
      <TextField label="Bridging software" value={product} maxLength={BOUNDS.sentUpdate.maxProductChars} onChange={(event) => setProduct(event.target.value)} autoComplete="off" />
      <TextField label="Reference" optional value={reference} maxLength={BOUNDS.sentUpdate.maxReferenceChars} onChange={(event) => setReference(event.target.value)} autoComplete="off" />
      <TextField label="Sent on" type="date" value={sentOn} onChange={(event) => setSentOn(event.target.value)} />
      <FormAlert message={error} />
      <Button type="submit" disabled={saving}>
        {label}
      </Button>
    </form>
  );
}

function Figure({ field, group, amount, lines }: { field: FigureKey; group: string; amount: number; lines: RecordLine[] }) {
  return (
    <li className={styles.updateFigure}>
      <details>
        <summary>
          <span className={styles.rowLabel}>
            <span>{figureLabel(field)}</span>
            <span className={styles.rowHint}>
              {group}.{field}
            </span>
          </span>
          <span className={styles.amount}>{formatPence(amount)}</span>
        </summary>
        {lines.length === 0 ? (
          <p className={styles.muted}>No records.</p>
        ) : (
          <ul className={styles.behind} aria-label={`Records behind ${figureLabel(field)}`}>
            {lines.map((line, index) => (
              <li key={`${line.kind}:${line.recordId}:${line.date}:${index}`}>
                <span>
                  {formatShortDate(line.date)} {line.text}
                </span>
                <span className={styles.amount}>{formatPence(line.amount)}</span>
              </li>
            ))}
          </ul>
        )}
      </details>
    </li>
  );
}
