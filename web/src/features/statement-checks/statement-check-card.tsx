import { ListChecks, Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/button';
import { SyncStateLabel } from '@/components/sync-state-label';
import { formatPence } from '@/lib/format';
import { periodWords } from '@/core/pay-periods/pay-period';
import { statementCheckPage } from '@/lib/paths';
import type { LocalStatementCheck } from '@/sync/types';
import { statusLabel } from './statement-check-form-schema';
import type { StatementCheck } from '@/core/statements/statement-check';
import { StatementComparison, StatementResultBadge } from './statement-comparison';
import styles from './statement-checks.module.css';

interface StatementCheckCardProps {
  check: LocalStatementCheck;
  result: StatementCheck;
  parkedReason: string | undefined;
  onEdit: () => void;
  onDelete: () => void;
  /** What the screen offers about a check that does not match ("Query this"), above the foot. */
  action?: ReactNode;
}

/**
 * One saved statement check: what it found in words, the driver's own status apart from it, each
 * line against the log, what explains the differences; where it stands with the server at the
 * foot, in words beside its tick.
 */
export function StatementCheckCard({ check, result, parkedReason, onEdit, onDelete, action }: StatementCheckCardProps) {
  const period = periodWords({ start: check.periodStart, end: check.periodEnd });
  return (
    <article className={styles.checkCard} aria-label={`Statement check ${period}`}>
      <header className={styles.checkTop}>
        <div>
          <h4 className={styles.checkTitle}>Net paid {formatPence(check.paid)}</h4>
          {check.reference ? <p className={styles.hint}>{check.reference}</p> : null}
        </div>
        <div className={styles.badges}>
          <StatementResultBadge result={result} />
          {check.status === 'unchecked' ? null : (
            <span className={styles.status} data-status={check.status}>
              Your status: {statusLabel(check.status)}
            </span>
          )}
        </div>
      </header>
      <StatementComparison result={result} />
      {check.note ? (
        <p className={styles.note}>
          <span className={styles.noteLabel}>Note: </span>
          {check.note}
        </p>
      ) : null}
      {action ? <div className={styles.cardAction}>{action}</div> : null}
      <footer className={styles.cardFoot}>
        <span className={styles.syncState}>
          <SyncStateLabel state={check.syncState} reason={parkedReason} />
          {check.syncState === 'synced' ? <span aria-hidden="true">Synced</span> : null}
        </span>
        <div className={styles.cardActions}>
          <Link className={styles.linesLink} to={statementCheckPage(check.id)} aria-label={`Lines and differences of statement check ${period}`}>
            <ListChecks aria-hidden="true" />
            Lines
          </Link>
          <Button variant="ghost" aria-label={`Edit statement check ${period}`} onClick={onEdit}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <Button variant="ghost" className={styles.delete} aria-label={`Delete statement check ${period}`} onClick={onDelete}>
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        </div>
      </footer>
    </article>
  );
}
