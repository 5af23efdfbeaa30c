import { formatPence } from '@/lib/format';
import { resultWords, statementFindings, statementResult, type StatementCheck, type StatementLine } from '@/core/statements/statement-check';
import styles from './statement-checks.module.css';

const count = new Intl.NumberFormat('en-GB');

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

/**
 * What a statement check found, in words ("Matches", "£19.68 short"), as its own badge: never a
 * tick, which is the sync state's. The saved card and the form (live, as the driver types) both
 * show it.
 */
export function StatementResultBadge({ result }: { result: StatementCheck }) {
  const found = statementResult(result);
  return (
    <span className={styles.result} data-result={found.kind}>
      <span className="visually-hidden">Result: </span>
      {resultWords(found)}
    </span>
  );
}

/** Each line against the log, and the days and charges that explain a difference. */
export function StatementComparison({ result }: { result: StatementCheck }) {
  return (
    <>
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
      <ul className={styles.findings} data-agrees={result.agrees} aria-label="What explains it">
        {statementFindings(result).map((finding) => (
          <li key={finding}>{finding}</li>
        ))}
      </ul>
    </>
  );
}
