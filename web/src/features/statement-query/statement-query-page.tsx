// One statement query: the dated letter made from the items frozen when "Query this" made it,
// to print (or save as PDF) or to copy as plain text for the courier's e-mail or portal; the
// hash chain checked each time it opens (a changed item is named); its evidence bundle (a ZIP of
// the summary, the photos and a manifest of their hashes); and its tracking: sent,
// answered, paid back on a later statement, closed, with the reminder's days. All from the
// device, so it works offline.
import { ArrowLeft } from 'lucide-react';
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { Page } from '@/components/page';
import { SelectField, TextAreaField, TextField } from '@/components/text-field';
import { periodWords } from '@/core/pay-periods/pay-period';
import { evidenceChanges, isEvidenceItem } from '@/core/evidence/evidence';
import { firstBrokenLink } from '@/core/statement-queries/chain';
import { letterOf, letterText, recordedWords } from '@/core/statement-queries/letter';
import { queryStage, STAGE_WORDS, stillOwed } from '@/core/statement-queries/query';
import { EvidenceBundleButton } from '@/features/evidence/evidence-bundle-button';
import { EvidencePhoto, EvidenceSection } from '@/features/evidence/evidence-section';
import { useAllEvidence } from '@/features/evidence/use-evidence';
import { useStatementChecks } from '@/features/statement-checks/use-statement-checks';
import { trackStatementQuery } from '@/features/statement-queries/commands';
import { ReminderDaysForm } from '@/features/statement-queries/reminder-days-form';
import { useStatementQueries } from '@/features/statement-queries/use-statement-queries';
import { formatPence, formatShortDate } from '@/lib/format';
import { statementCheckPage } from '@/lib/paths';
import { usePaySetup } from '@/lib/sync-react/use-pay-setup';
import { useProfile } from '@/lib/sync-react/use-profile';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useNow } from '@/lib/use-now';
import { localDay } from '@/lib/week';
import type { LocalStatementCheck, LocalStatementQuery } from '@/sync/types';
import { fieldsOf, readTracking, type TrackingErrors, type TrackingFields } from './tracking-form';
import styles from './statement-query-page.module.css';

export function StatementQueryPage() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const queries = useStatementQueries();
  const checks = useStatementChecks();
  const pay = usePaySetup();
  const profile = useProfile();
  const query = queries?.find((q) => q.id === id);
  const check = checks?.find((c) => c.id === query?.statementCheckId);
  const courier = pay?.couriers.find((c) => c.id === check?.courierId);
  if (queries === undefined || checks === undefined || pay === undefined) return <Page title="Statement query" />;
  if (!query || !check) {
    return (
      <Page title="Statement query">
        <p role="status">This statement query is not on this device: it may have been deleted.</p>
      </Page>
    );
  }
  const later = checks.filter((c) => c.id !== check.id && c.courierId === check.courierId && c.periodStart > check.periodStart).sort((a, b) => (a.periodStart < b.periodStart ? -1 : 1));
  return (
    <Page title="Statement query" intro={`${courier?.name ?? 'Courier'} · ${periodWords({ start: check.periodStart, end: check.periodEnd })}`}>
      <Link className={`${styles.back} ${styles.noPrint}`} to={statementCheckPage(check.id)}>
        <ArrowLeft aria-hidden="true" />
        Statement check
      </Link>
      <QueryLetter query={query} check={check} courierName={courier?.name ?? 'the courier'} from={profile?.displayName ?? ''} />
      <RecordedEvidence query={query} />
      <EvidenceSection holder={{ statementQueryId: query.id }} about="this query" hint="Kept on the query after it was made: listed here, not in its recorded chain." />
      <Tracking key={`${query.id}-${query.updatedAt}`} query={query} later={later} courierName={courier?.name ?? ''} />
      <ReminderDays />
    </Page>
  );
}

function QueryLetter({ query, check, courierName, from }: { query: LocalStatementQuery; check: LocalStatementCheck; courierName: string; from: string }) {
  const broken = useMemo(() => firstBrokenLink(query.items), [query.items]);
  const context = { courierName, periodStart: check.periodStart, periodEnd: check.periodEnd, reference: check.reference, from };
  const letter = letterOf(query, context);
  const text = letterText(letter);
  const [copied, setCopied] = useState<'copied' | 'select' | null>(null);
  const fallback = useRef<HTMLTextAreaElement>(null);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      setCopied('copied');
    } catch {
      // No clipboard (a page on plain http on the LAN) or no permission: the text, selected.
      setCopied('select');
      requestAnimationFrame(() => fallback.current?.select());
    }
  };
  return (
    <>
      <section className={styles.chain} aria-label="The query's record">
        <p className={styles.recorded}>{recordedWords(query)}</p>
        {broken === null ? (
          <p role="status" className={styles.hint}>
            Chain checked: every item is as recorded.
          </p>
        ) : (
          <FormAlert message={`Item ${broken + 1} has changed since the query was recorded: the chain no longer matches from there.`} />
        )}
      </section>
      <div className={`${styles.actions} ${styles.noPrint}`}>
        <Button onClick={() => window.print()}>Print or save as PDF</Button>
        <Button variant="secondary" onClick={() => void copy()}>
          Copy text
        </Button>
      </div>
      <div className={styles.noPrint}>
        <EvidenceBundleButton request={() => ({ query: { id: query.id, content: query, context } })} driver={from} />
      </div>
      <p role="status" className={`${styles.hint} ${styles.noPrint}`}>
        {copied === 'copied' ? 'Copied: paste it into the courier’s e-mail or portal.' : copied === 'select' ? 'This browser would not copy: the text is selected below, copy it from there.' : ''}
      </p>
      {copied === 'select' ? (
        <label className={`${styles.fallback} ${styles.noPrint}`}>
          The letter as text
          <textarea ref={fallback} readOnly value={text} rows={12} />
        </label>
      ) : null}
      <article className={styles.letter} aria-labelledby="letter-title">
        <h2 id="letter-title" className={styles.letterTitle}>
          {letter.title}
        </h2>
        <p>{letter.dated}</p>
        <p>{letter.greeting}</p>
        <p>{letter.opening}</p>
        <ol className={styles.items} aria-label="Differences queried">
          {letter.items.map((item) => (
            <li key={item.number} className={styles.item}>
              <div className={styles.itemMain}>
                <span className={styles.itemDate}>{item.date}</span>
                <span className={styles.words}>{item.words}</span>
                <span className={styles.amount}>{item.amount}</span>
              </div>
              <p className={styles.hint}>{item.figures}</p>
            </li>
          ))}
        </ol>
        <p className={styles.total}>{letter.total}</p>
        <p>{letter.closing}</p>
        {letter.signature ? <p>{letter.signature}</p> : null}
        <p className={styles.hint}>{letter.recorded}</p>
      </article>
    </>
  );
}

/**
 * The evidence the query recorded when it was made (kept on the days and lines it names), each
 * checked against the item as it is now: a change or a removal since is said.
 */
function RecordedEvidence({ query }: { query: LocalStatementQuery }) {
  const all = useAllEvidence();
  const recorded = query.items.filter(isEvidenceItem);
  if (recorded.length === 0 || all === undefined) return null;
  const changes = new Map(evidenceChanges(query.items, all).map((c) => [c.id, c]));
  const byId = new Map(all.map((e) => [e.id, e]));
  return (
    <section className={styles.chain} aria-labelledby="recorded-evidence-title">
      <h2 id="recorded-evidence-title" className={styles.letterTitle}>
        Evidence recorded with the query
      </h2>
      <ul className={styles.evidence} aria-label="Evidence recorded with the query">
        {recorded.map((item) => {
          const change = changes.get(item.logged);
          const now = byId.get(item.logged);
          return (
            <li key={item.logged} className={styles.evidenceItem}>
              {now?.photoId ? <EvidencePhoto id={now.photoId} holderId={now.id} name={item.words} /> : null}
              <span className={styles.evidenceWords}>
                {item.date ? `${formatShortDate(item.date)}: ` : ''}
                {item.words}
              </span>
              {change ? (
                <p className={styles.changed} role="status">
                  {change.state === 'removed' ? `Evidence item “${item.words}” was removed since the query was made.` : `Evidence item “${item.words}” changed since the query was made.`}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Tracking({ query, later, courierName }: { query: LocalStatementQuery; later: readonly LocalStatementCheck[]; courierName: string }) {
  const handle = useSyncHandle();
  const today = localDay(useNow());
  const [fields, setFields] = useState<TrackingFields>(() => fieldsOf(query));
  const [errors, setErrors] = useState<TrackingErrors>({});
  const [saved, setSaved] = useState(false);
  const set = (field: keyof TrackingFields) => (event: { target: { value: string } }) => {
    setFields({ ...fields, [field]: event.target.value });
    setSaved(false);
  };
  const save = async (next: TrackingFields) => {
    const read = readTracking(next, query.madeOn);
    if ('errors' in read) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    await trackStatementQuery(handle, query, read.tracking);
    setSaved(true);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(fields);
  };
  const stage = queryStage(query);
  return (
    <section className={`${styles.section} ${styles.noPrint}`} aria-labelledby="tracking-title">
      <h2 id="tracking-title" className={styles.title}>
        Tracking
      </h2>
      <p>
        <strong>{STAGE_WORDS[stage]}</strong>
        {query.paidBackAmount !== null ? ` · ${formatPence(query.paidBackAmount)} paid back, ${formatPence(stillOwed(query))} still owed` : ` · ${formatPence(stillOwed(query))} queried`}
      </p>
      {query.sentOn === null ? (
        <Button variant="secondary" onClick={() => void save({ ...fields, sentOn: today })}>
          Mark as sent today
        </Button>
      ) : null}
      <form className={styles.form} onSubmit={submit} noValidate>
        <TextField label="Sent on" type="date" value={fields.sentOn} onChange={set('sentOn')} error={errors.sentOn} optional />
        <TextField label="Answered on" type="date" value={fields.answeredOn} onChange={set('answeredOn')} error={errors.answeredOn} optional />
        <TextField label="Paid back (£)" inputMode="decimal" value={fields.paidBack} onChange={set('paidBack')} error={errors.paidBack} optional />
        <TextField label="Paid back on" type="date" value={fields.paidBackOn} onChange={set('paidBackOn')} error={errors.paidBackOn} optional />
        <SelectField label="On the statement" value={fields.paidBackCheckId} onChange={set('paidBackCheckId')} error={errors.paidBackCheckId} optional>
          <option value="">Not on a statement checked here</option>
          {later.map((c) => (
            <option key={c.id} value={c.id}>
              {`${courierName} ${periodWords({ start: c.periodStart, end: c.periodEnd })}, ${formatPence(c.paid)}`}
            </option>
          ))}
        </SelectField>
        <TextField label="Closed on" type="date" value={fields.closedOn} onChange={set('closedOn')} error={errors.closedOn} optional />
        <TextAreaField label="Note" value={fields.note} onChange={set('note')} error={errors.note} rows={3} optional />
        <div className={styles.actions}>
          <Button type="submit">Save tracking</Button>
        </div>
        <p role="status" className={styles.hint}>
          {saved ? 'Saved on this device; it syncs when you are online.' : ''}
        </p>
      </form>
    </section>
  );
}

function ReminderDays() {
  return (
    <section className={`${styles.section} ${styles.noPrint}`} aria-labelledby="reminder-title">
      <h2 id="reminder-title" className={styles.title}>
        Reminder
      </h2>
      <ReminderDaysForm />
    </section>
  );
}
