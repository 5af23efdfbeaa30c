import { Pencil, Trash2 } from 'lucide-react';
import { Button } from '@/components/button';
import { SyncStateLabel } from '@/components/sync-state-label';
import { formatPence } from '@/lib/format';
import { periodWords } from '@/lib/pay-period';
import type { LocalInvoice } from '@/sync/types';
import { statusLabel } from './invoice-form-schema';
import { statementFindings, type StatementCheck, type StatementLine } from './statement-check';
import styles from './invoices.module.css';

const count = new Intl.NumberFormat('en-GB');

interface InvoiceCardProps {
  check: LocalInvoice;
  result: StatementCheck;
  parkedReason: string | undefined;
  onEdit: () => void;
  onDelete: () => void;
}

function figure(line: StatementLine, value: number | null): string {
  if (value === null) return '—';
  return line.money ? formatPence(value) : count.format(value);
}

function signed(line: StatementLine): string {
  const { difference } = line;
  if (difference === null) return '—';
  if (difference === 0) return line.money ? formatPence(0) : '0';
  const magnitude = line.money ? formatPence(Math.abs(difference)) : count.format(Math.abs(difference));
  return `${difference > 0 ? '+' : '−'}${magnitude}`;
}

/** One saved statement check: each line against the log, the differences, and what explains them. */
export function InvoiceCard({ check, result, parkedReason, onEdit, onDelete }: InvoiceCardProps) {
  const period = periodWords({ start: check.periodStart, end: check.periodEnd });
  const net = result.lines.find((l) => l.id === 'net');
  const tone = result.agrees ? 'match' : (net?.difference ?? 0) < 0 ? 'short' : 'over';
  return (
    <article className={styles.invoice} data-tone={tone} aria-label={`Statement check ${period}`}>
      <header className={styles.invoiceTop}>
        <div>
          <h4 className={styles.invoiceTitle}>Statement {formatPence(check.paid)}</h4>
          {check.reference ? <p className={styles.hint}>{check.reference}</p> : null}
        </div>
        <div className={styles.badges}>
          <span className={styles.status} data-status={check.status}>
            {statusLabel(check.status)}
          </span>
          <SyncStateLabel state={check.syncState} reason={parkedReason} />
        </div>
      </header>
      <table className={styles.lines}>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Line</span>
            </th>
            <th scope="col">Your log</th>
            <th scope="col">Statement</th>
            <th scope="col">Difference</th>
          </tr>
        </thead>
        <tbody>
          {result.lines.map((line) => (
            <tr key={line.id} data-differs={line.difference !== null && line.difference !== 0 ? (line.difference < 0 ? 'short' : 'over') : undefined}>
              <th scope="row">{line.label}</th>
              <td>{figure(line, line.log)}</td>
              <td>{figure(line, line.statement)}</td>
              <td>{signed(line)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className={styles.findings} aria-label="What explains it">
        {statementFindings(result).map((finding) => (
          <li key={finding}>{finding}</li>
        ))}
      </ul>
      {check.note ? (
        <p className={styles.note}>
          <span className={styles.noteLabel}>Note: </span>
          {check.note}
        </p>
      ) : null}
      <div className={styles.cardActions}>
        <Button variant="ghost" aria-label={`Edit statement check ${period}`} onClick={onEdit}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        <Button variant="ghost" className={styles.delete} aria-label={`Delete statement check ${period}`} onClick={onDelete}>
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>
    </article>
  );
}
