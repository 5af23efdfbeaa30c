// A statement check's lines as the statement gives them, each deletable (with undo through the
// caller's toast if it wants one). `highlighted` marks the lines behind a difference the driver
// opened, so one tap shows what the courier wrote.
import { Trash2 } from 'lucide-react';
import { Button } from '@/components/button';
import { formatPence, formatShortDate } from '@/lib/format';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { LocalStatementLine } from '@/sync/types';
import { deleteStatementLine } from './commands';
import { lineWords } from './words';
import styles from './statement-lines.module.css';

export function StatementLinesList({ lines, highlighted }: { lines: readonly LocalStatementLine[]; highlighted: ReadonlySet<string> }) {
  const handle = useSyncHandle();
  if (lines.length === 0) return <p className={styles.hint}>No lines yet: import the statement file above.</p>;
  return (
    <ul className={styles.lines} aria-label="Statement lines">
      {lines.map((line) => (
        <li key={line.id} id={`line-${line.id}`} className={styles.line} data-highlighted={highlighted.has(line.id) || undefined}>
          <span className={styles.lineDate}>{formatShortDate(line.date)}</span>
          <span className={styles.lineWhat}>
            {lineWords(line)}
            {line.quantity !== 1 || line.rate !== null ? (
              <span className={styles.hint}>
                {' '}
                {line.rate === null ? `× ${line.quantity}` : `${line.quantity} × ${formatPence(line.rate)}`}
              </span>
            ) : null}
            {line.reference ? <span className={styles.reference}>{line.reference}</span> : null}
          </span>
          <span className={styles.amount}>{formatPence(line.amount)}</span>
          <Button variant="ghost" className={styles.iconButton} aria-label={`Delete the ${lineWords(line)} line of ${formatShortDate(line.date)}`} onClick={() => void deleteStatementLine(handle, line.id)}>
            <Trash2 aria-hidden="true" />
          </Button>
        </li>
      ))}
    </ul>
  );
}
