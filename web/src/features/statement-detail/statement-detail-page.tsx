// One statement check line by line: what the statement's lines say against the log and the
// rate card in force each day, every difference named with its amount and one tap from the days
// and lines behind it; the courier's file imported here; the lines themselves below. All from
// the device, so the page works offline.
import { ArrowLeft } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Page } from '@/components/page';
import type { Difference } from '@/core/statement-lines/match-statement';
import { matchCheck } from '@/core/statement-queries/check-match';
import { canQuery, queriesAbout, queryStage, STAGE_WORDS } from '@/core/statement-queries/query';
import { QueryThisButton } from '@/features/statement-queries/query-this-button';
import { useStatementQueries } from '@/features/statement-queries/use-statement-queries';
import { useEntries } from '@/features/entries/use-entries';
import { useStatementChecks } from '@/features/statement-checks/use-statement-checks';
import { StatementImport } from '@/features/statement-lines/statement-import';
import { EvidenceSection } from '@/features/evidence/evidence-section';
import { StatementLinesList } from '@/features/statement-lines/statement-lines-list';
import { lineWords } from '@/features/statement-lines/words';
import { TypedLineForm } from '@/features/statement-lines/typed-line-form';
import { useStatementLines } from '@/features/statement-lines/use-statement-lines';
import { formatPence, formatShortDate } from '@/lib/format';
import { historyDay, historyView, statementQueryPage } from '@/lib/paths';
import { periodWords } from '@/core/pay-periods/pay-period';
import { usePaySetup } from '@/lib/sync-react/use-pay-setup';
import type { LocalEntry, LocalStatementLine } from '@/sync/types';
import styles from './statement-detail-page.module.css';

export function StatementDetailPage() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const checks = useStatementChecks();
  const entries = useEntries();
  const pay = usePaySetup();
  const allLines = useStatementLines();
  const queries = useStatementQueries();
  const [opened, setOpened] = useState<number | null>(null);
  const check = checks?.find((c) => c.id === id);
  const lines = useMemo(() => (allLines ?? []).filter((l) => l.invoiceId === id), [allLines, id]);
  const courier = pay?.couriers.find((c) => c.id === check?.courierId);
  const match = useMemo(
    () => (check && entries && pay && courier && queries ? matchCheck({ check, days: entries, lines, cards: pay.cards, deductions: pay.deductions, calendar: courier, queries }) : null),
    [check, entries, pay, courier, lines, queries],
  );
  const back = (
    <Link className={styles.back} to={historyView('statements')}>
      <ArrowLeft aria-hidden="true" />
      Statements
    </Link>
  );
  if (checks === undefined || allLines === undefined || entries === undefined || pay === undefined || queries === undefined) return <Page title="Statement check">{back}</Page>;
  if (!check || !courier || !match) {
    return (
      <Page title="Statement check">
        {back}
        <p role="status">This statement check is not on this device: it may have been deleted.</p>
      </Page>
    );
  }
  const shown = opened === null ? null : (match.differences[opened] ?? null);
  const asked = queriesAbout(check.id, queries);
  const highlighted = new Set(shown?.lineIds ?? []);
  return (
    <Page title="Statement check" intro={`${courier.name} · ${periodWords({ start: check.periodStart, end: check.periodEnd })}`}>
      {back}
      <section className={styles.section} aria-labelledby="differences-title">
        <h2 id="differences-title" className={styles.title}>
          What the statement paid against your log
        </h2>
        <dl className={styles.figures}>
          <div>
            <dt>Your log says</dt>
            <dd>{formatPence(match.owed)}</dd>
          </div>
          <div>
            <dt>The statement paid</dt>
            <dd>{formatPence(match.paid)}</dd>
          </div>
          <div>
            <dt>{match.difference >= 0 ? 'Owed to you' : 'Paid over your log'}</dt>
            <dd className={styles.difference}>{formatPence(Math.abs(match.difference))}</dd>
          </div>
        </dl>
        {lines.length === 0 ? <p className={styles.hint}>Import the statement’s lines below to see each difference.</p> : null}
        {match.differences.length === 0 ? (
          lines.length > 0 ? <p>Every line matches your log and your rate card.</p> : null
        ) : (
          <ol className={styles.differences} aria-label="Differences">
            {match.differences.map((d, index) => (
              <DifferenceRow key={`${d.kind}-${d.date ?? ''}-${index}`} difference={d} open={opened === index} onToggle={() => setOpened(opened === index ? null : index)} entries={entries} lines={lines} />
            ))}
            <li className={styles.total}>
              <span>Total of the differences</span>
              <span className={styles.amount}>{formatPence(match.differences.reduce((s, d) => s + d.amount, 0))}</span>
            </li>
          </ol>
        )}
        {canQuery(match.differences) ? (
          <div>
            <QueryThisButton checkId={check.id} differences={match.differences} />
            <p className={styles.hint}>Makes a dated letter listing each difference, to print or copy for the courier, and marks the check Disputed.</p>
          </div>
        ) : null}
        {asked.length > 0 ? (
          <ul className={styles.queries} aria-label="Queries about this statement">
            {asked.map((q) => (
              <li key={q.id}>
                <Link className={styles.recordLink} to={statementQueryPage(q.id)}>
                  Query of {formatShortDate(q.madeOn)}: {formatPence(q.total)} · {STAGE_WORDS[queryStage(q)]}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <StatementImport check={check} />
      <section className={styles.section} aria-labelledby="lines-title">
        <h2 id="lines-title" className={styles.title}>
          The statement’s lines
        </h2>
        <p className={styles.hint}>
          {lines.length} {lines.length === 1 ? 'line' : 'lines'}, adding up to {formatPence(match.linesTotal)}
        </p>
        <StatementLinesList lines={lines} highlighted={highlighted} />
        <TypedLineForm check={check} />
      </section>
    </Page>
  );
}

function DifferenceRow({ difference: d, open, onToggle, entries, lines }: { difference: Difference; open: boolean; onToggle: () => void; entries: readonly LocalEntry[]; lines: readonly LocalStatementLine[] }) {
  const days = entries.filter((e) => d.entryIds.includes(e.id));
  const linesBehind = lines.filter((l) => d.lineIds.includes(l.id));
  const records = d.entryIds.length + d.lineIds.length;
  return (
    <li className={styles.row} data-kind={d.kind}>
      <div className={styles.rowMain}>
        <span className={styles.rowDate}>{d.date ? formatShortDate(d.date) : 'Statement'}</span>
        <span className={styles.words}>{d.words}</span>
        <span className={styles.amount} data-sign={d.amount < 0 ? 'over' : 'owed'}>
          {d.amount < 0 ? `−${formatPence(-d.amount)}` : formatPence(d.amount)}
        </span>
      </div>
      <p className={styles.hint}>
        Logged: {d.logged} · Paid: {d.paid}
        {d.cardRate !== null ? ` · Card’s rate ${formatPence(d.cardRate)}` : ''}
      </p>
      {records > 0 ? (
        <button type="button" className={styles.toggle} aria-expanded={open} onClick={onToggle}>
          {open ? 'Hide' : 'Show'} the records behind it ({records})
        </button>
      ) : null}
      {open ? (
        <div className={styles.records}>
          {days.map((day) => (
            <Link key={day.id} className={styles.recordLink} to={historyDay(day.date, day.id)}>
              Your day {formatShortDate(day.date)}: {day.stops} stops{day.parcels !== null ? `, ${day.parcels} parcels` : ''}, {formatPence(day.total)}
            </Link>
          ))}
          {d.lineIds.length > 0 ? (
            <a className={styles.recordLink} href={`#line-${d.lineIds[0]}`}>
              {d.lineIds.length} statement {d.lineIds.length === 1 ? 'line' : 'lines'} (highlighted below)
            </a>
          ) : null}
          {/* What the driver kept at the time, on each record behind the difference: "Query this" records it with the query. */}
          {days.map((day) => (
            <EvidenceSection key={day.id} level={3} holder={{ entryId: day.id }} about={`your day ${formatShortDate(day.date)}`} />
          ))}
          {linesBehind.map((line) => (
            <EvidenceSection key={line.id} level={3} holder={{ statementLineId: line.id }} about={`the statement line ${lineWords(line)} of ${formatShortDate(line.date)}`} />
          ))}
        </div>
      ) : null}
    </li>
  );
}
