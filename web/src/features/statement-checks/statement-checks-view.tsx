import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { SelectField } from '@/components/text-field';
import { INVOICE_MASTER_CHECKS } from '@/lib/achievements';
import { formatPence, formatShortDate } from '@/lib/format';
import { whatIfLink } from '@/lib/paths';
import { periodHolding, periodRuleWords, periodWords, type PayPeriod } from '@/core/pay-periods/pay-period';
import { usePaySetup } from '@/lib/sync-react/use-pay-setup';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { addDays } from '@/lib/week';
import { DEFAULT_COURIER } from '@/sync/default-courier';
import type { CourierContent, LocalDeduction, LocalEntry, LocalStatementCheck } from '@/sync/types';
import { StatementCheckCard } from './statement-check-card';
import { StatementCheckForm } from './statement-check-form';
import type { StatementFormValue } from './statement-check-form-schema';
import { checkStatement } from '@/core/statements/statement-check';
import { courierPeriods, type PeriodRow } from '@/core/statements/statement-periods';
import panel from '@/components/panel.module.css';
import styles from './statement-checks.module.css';

/** Periods shown at first; older ones a tap away (years of weekly statements make a long list). */
export const PERIODS_PER_PAGE = 12;

interface StatementChecksViewProps {
  checks: LocalStatementCheck[];
  /** Every live entry: a statement's period need not be inside the list's date range. */
  entries: readonly LocalEntry[];
  parkedReasons: ReadonlyMap<string, string>;
  today: string;
  onDelete: (check: LocalStatementCheck) => void;
  /**
   * What the screen offers on a check's card (History: "Query this", or the query made), given
   * the check as its courier's periods show it. Records of other features stay with the screen.
   */
  queryAction?: (check: LocalStatementCheck) => ReactNode;
}

/** What is open for editing: a new check of a period, or a saved check. */
type Editing = { kind: 'new'; start: string } | { kind: 'edit'; id: string } | null;

const count = new Intl.NumberFormat('en-GB');

/**
 * Statement checks of one courier: its pay periods newest first, each with what the log says
 * and its check, or a way to check it.
 */
export function StatementChecksView({ checks, entries, parkedReasons, today, onDelete, queryAction }: StatementChecksViewProps) {
  const { db } = useSyncHandle();
  const setup = usePaySetup();
  const [chosen, setChosen] = useState<string | null>(null);
  // Before the first pull brings the default courier (or from an old server), the default
  // courier is what every day and check without one means (sync/default-courier.ts).
  const couriers: Courier[] = setup && setup.couriers.length > 0 ? setup.couriers : [{ ...DEFAULT_COURIER, id: db.userId }];
  const courier = couriers.find((c) => c.id === chosen) ?? couriers[0];
  const checked = Math.min(checks.length, INVOICE_MASTER_CHECKS);
  return (
    <section className={panel.panel} aria-labelledby="checks-title">
      <div className={panel.panelHead}>
        <h2 id="checks-title" className={panel.panelTitle}>
          Statement checks
        </h2>
        <span className={styles.hint}>
          {checked} of {INVOICE_MASTER_CHECKS} towards Invoice Master
        </span>
      </div>
      {couriers.length > 1 ? (
        <SelectField label="Courier" value={courier?.id ?? ''} onChange={(e) => setChosen(e.target.value)}>
          {couriers.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </SelectField>
      ) : null}
      {setup && courier ? (
        <CourierStatements
          key={courier.id}
          courier={courier}
          // Checks of a courier that was deleted stay visible with the first courier's.
          checks={courier.id === couriers[0]?.id ? checks.filter((check) => check.courierId === courier.id || !couriers.some((c) => c.id === check.courierId)) : checks}
          entries={entries}
          deductions={setup.deductions}
          parkedReasons={parkedReasons}
          today={today}
          onDelete={onDelete}
          queryAction={queryAction}
        />
      ) : null}
    </section>
  );
}

type Courier = CourierContent & { id: string };

interface CourierStatementsProps extends Omit<StatementChecksViewProps, 'checks'> {
  courier: Courier;
  checks: readonly LocalStatementCheck[];
  deductions: readonly LocalDeduction[];
}

function CourierStatements({ courier, checks, entries, deductions, parkedReasons, today, onDelete, queryAction }: CourierStatementsProps) {
  const [editing, setEditing] = useState<Editing>(null);
  const [shown, setShown] = useState(PERIODS_PER_PAGE);
  // A check of a deleted courier is compared as if it were this courier's.
  const own = useMemo(() => checks.map((check) => (check.courierId === courier.id ? check : { ...check, courierId: courier.id })), [checks, courier.id]);
  const { rows, others } = useMemo(() => courierPeriods(courier, entries, own, deductions, today), [courier, entries, own, deductions, today]);

  const compare = useCallback(
    (figures: StatementFormValue) => {
      const period = { start: figures.periodStart, end: figures.periodEnd };
      // The periods either side, where a charge taken early or late is looked for.
      const around = { from: periodHolding(courier, addDays(period.start, -1)).start, to: periodHolding(courier, addDays(period.end, 1)).end };
      return checkStatement({ ...figures, courierId: courier.id }, entries, deductions, around);
    },
    [courier, entries, deductions],
  );

  const original = (check: LocalStatementCheck) => checks.find((c) => c.id === check.id) ?? check;
  const card = (check: LocalStatementCheck, period: PayPeriod) =>
    editing?.kind === 'edit' && editing.id === check.id ? (
      <StatementCheckForm key={check.id} courierId={courier.id} period={period} editing={original(check)} compare={compare} onSaved={() => setEditing(null)} onCancel={() => setEditing(null)} />
    ) : (
      <StatementCheckCard
        key={check.id}
        check={check}
        result={compare(check)}
        parkedReason={parkedReasons.get(check.id)}
        onEdit={() => setEditing({ kind: 'edit', id: check.id })}
        onDelete={() => onDelete(original(check))}
        action={queryAction?.(check)}
      />
    );

  return (
    <>
      <p className={styles.hint}>
        {courier.name}: {periodRuleWords(courier)}.
      </p>
      <ol className={styles.periods} aria-label="Pay periods">
        {rows.slice(0, shown).map((row) => (
          <li key={row.period.start} className={styles.period} aria-label={`Pay period ${periodWords(row.period)}`}>
            <PeriodSummary row={row} />
            <Link className={styles.whatIf} to={whatIfLink(courier.id, { from: row.period.start, to: row.period.end })}>
              What would another card have paid?
            </Link>
            {row.checks.map((check) => card(check, row.period))}
            {editing?.kind === 'new' && editing.start === row.period.start ? (
              <StatementCheckForm courierId={courier.id} period={row.period} compare={compare} onSaved={() => setEditing(null)} onCancel={() => setEditing(null)} />
            ) : row.checks.length === 0 ? (
              <div className={styles.unchecked}>
                <span className={styles.hint}>No statement checked yet</span>
                <button type="button" className={styles.checkButton} onClick={() => setEditing({ kind: 'new', start: row.period.start })}>
                  Check statement
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ol>
      {rows.length > shown ? (
        <button type="button" className={styles.more} onClick={() => setShown((n) => n + PERIODS_PER_PAGE)}>
          Show older periods ({rows.length - shown})
        </button>
      ) : null}
      {others.length > 0 ? (
        <section className={styles.others} aria-labelledby="other-checks">
          <h3 id="other-checks" className={styles.othersTitle}>
            Other checks
          </h3>
          <p className={styles.hint}>Made for dates that are not one of {courier.name}’s pay periods now.</p>
          <ul className={styles.checkList}>
            {others.map((check) => (
              <li key={check.id}>{card(check, { start: check.periodStart, end: check.periodEnd })}</li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

function PeriodSummary({ row }: { row: PeriodRow<LocalStatementCheck> }) {
  const { log } = row;
  return (
    <div className={styles.periodHead}>
      <h3 className={styles.periodTitle}>
        {periodWords(row.period)}
        {row.current ? <span className={styles.current}>Current</span> : null}
      </h3>
      <p className={styles.hint}>
        {log.days} {log.days === 1 ? 'day' : 'days'}, {count.format(log.stops)} stops · {formatPence(log.gross)} gross
        {log.deductions > 0 ? ` − ${formatPence(log.deductions)} = ${formatPence(log.net)} net` : ''} · pay due {formatShortDate(row.payDate)}
      </p>
    </div>
  );
}
