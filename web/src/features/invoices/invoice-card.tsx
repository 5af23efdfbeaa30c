import { Pencil, Trash2 } from 'lucide-react';
import { useMemo } from 'react';
import { Button } from '@/components/button';
import { SyncStateLabel } from '@/components/sync-state-label';
import { formatPence, formatShortDate } from '@/lib/format';
import type { LocalEntry, LocalInvoice } from '@/sync/types';
import { checkInvoice, invoiceSentence } from './invoice-check';
import styles from './invoices.module.css';

const count = new Intl.NumberFormat('en-GB');

interface InvoiceCardProps {
  check: LocalInvoice;
  entries: readonly LocalEntry[];
  parkedReason: string | undefined;
  onEdit: () => void;
  onDelete: () => void;
}

function signedPence(pence: number): string {
  return pence === 0 ? formatPence(0) : `${pence > 0 ? '+' : '−'}${formatPence(Math.abs(pence))}`;
}

/** One saved check: statement against log, the difference, and what explains it. */
export function InvoiceCard({ check, entries, parkedReason, onEdit, onDelete }: InvoiceCardProps) {
  const result = useMemo(() => checkInvoice(check, entries), [check, entries]);
  const period = `${formatShortDate(check.periodStart)} – ${formatShortDate(check.periodEnd)}`;
  const tone = result.difference < 0 ? 'short' : result.difference > 0 ? 'over' : 'match';
  return (
    <article className={styles.invoice} data-tone={tone} aria-label={`Invoice check ${period}`}>
      <header className={styles.invoiceTop}>
        <div>
          <h3 className={styles.invoiceTitle}>{period}</h3>
          {check.reference ? <p className={styles.hint}>{check.reference}</p> : null}
        </div>
        <SyncStateLabel state={check.syncState} reason={parkedReason} />
      </header>
      <dl className={styles.invoiceFigures}>
        <div>
          <dt>Statement</dt>
          <dd>{formatPence(check.paid)}</dd>
          {check.stops !== null ? <dd className={styles.sub}>{count.format(check.stops)} stops</dd> : null}
        </div>
        <div>
          <dt>Your log</dt>
          <dd>{formatPence(result.expected)}</dd>
          <dd className={styles.sub}>
            {count.format(result.expectedStops)} stops, {result.daysLogged} {result.daysLogged === 1 ? 'day' : 'days'}
          </dd>
        </div>
        <div className={styles.difference}>
          <dt>Difference</dt>
          <dd>{signedPence(result.difference)}</dd>
        </div>
      </dl>
      <p className={styles.explanation}>{invoiceSentence(result)}</p>
      <div className={styles.cardActions}>
        <Button variant="ghost" aria-label={`Edit invoice check ${period}`} onClick={onEdit}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        <Button variant="ghost" className={styles.delete} aria-label={`Delete invoice check ${period}`} onClick={onDelete}>
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>
    </article>
  );
}
