// The statement checks of a tax year, for the year-end checklist: every pay period of each
// courier with a day logged in the year has a statement check that is done. A check is done when
// the statement agrees with the log (checkStatement: every line the same), or when the driver
// followed it up as Accepted or Resolved (their status; "Disputed" stays open even if the
// figures agree). The latest check made for a period is the one that counts, as on the
// statement checks screen. A period whose pay is not due yet has no statement to check: it is
// named as such, so the year is not called done before its last statement came.
import { addDays } from '@/lib/week';
import { expectedPayDate, periodHolding, periodsBetween, type PayPeriod, type PeriodRule } from '@/core/pay-periods/pay-period';
import type { StatementCheckContent } from '@/sync/types';
import { checkStatement, resultWords, statementResult, type StatementDeduction, type StatementEntry } from './statement-check';
import { latestChecks, loggedDays, periodCheck } from './statement-periods';

export type OpenCheckState = 'missing' | 'unresolved' | 'notPaidYet';

export interface OpenPeriodCheck {
  courierId: string;
  courierName: string;
  period: PayPeriod;
  state: OpenCheckState;
  /** For an unresolved check: what the comparison finds ("£19.68 short"), or "disputed". */
  finding: string | null;
}

export interface YearStatementChecks {
  /** Periods with a day logged in the year whose check is done. */
  done: number;
  /** The others, by courier then oldest first. */
  open: readonly OpenPeriodCheck[];
}

type Check = Pick<StatementCheckContent, 'periodStart' | 'periodEnd' | 'courierId' | 'paid' | 'stops' | 'parcels' | 'collections' | 'deductions' | 'status'> & { createdAt: string };

export interface YearChecksInput {
  /** The tax year's first and last day. */
  from: string;
  to: string;
  today: string;
  /** The live couriers. */
  couriers: readonly (PeriodRule & { id: string; name: string })[];
  /** Live entries of every courier. */
  entries: readonly StatementEntry[];
  checks: readonly Check[];
  deductions: readonly StatementDeduction[];
}

/** The check's state: done (null), or why it is open, with what it found. */
export function checkState(check: Check, courier: PeriodRule & { id: string }, entries: readonly StatementEntry[], deductions: readonly StatementDeduction[]): { state: OpenCheckState; finding: string | null } | null {
  if (check.status === 'matches' || check.status === 'resolved') return null;
  // The periods either side, where a charge taken early or late is looked for (as on the statement checks screen).
  const around = { from: periodHolding(courier, addDays(check.periodStart, -1)).start, to: periodHolding(courier, addDays(check.periodEnd, 1)).end };
  const compared = checkStatement({ ...check, courierId: courier.id }, entries, deductions, around);
  if (check.status === 'disputed') return { state: 'unresolved', finding: compared.agrees ? 'disputed' : `${resultWords(statementResult(compared))}, disputed` };
  return compared.agrees ? null : { state: 'unresolved', finding: resultWords(statementResult(compared)) };
}

/**
 * Each courier's periods that hold a day of the year, oldest first: the same periods and checks
 * as the statement checks screen (courierPeriods), without working out the other years' hundreds
 * of periods on a device with years of days (issue 30).
 */
export function yearStatementChecks({ from, to, today, couriers, entries, checks, deductions }: YearChecksInput): YearStatementChecks {
  let done = 0;
  const open: OpenPeriodCheck[] = [];
  for (const courier of couriers) {
    const days = loggedDays(entries.filter((entry) => entry.courierId === courier.id));
    const made = latestChecks(courier.id, checks);
    for (const period of periodsBetween(courier, from, to)) {
      const logged = days.between(period.start > from ? period.start : from, period.end < to ? period.end : to).length > 0;
      if (!logged) continue;
      const base = { courierId: courier.id, courierName: courier.name, period };
      const latest = periodCheck(made, period);
      if (!latest) {
        open.push({ ...base, state: expectedPayDate(courier, period) > today ? 'notPaidYet' : 'missing', finding: null });
        continue;
      }
      const state = checkState(latest, courier, entries, deductions);
      if (state) open.push({ ...base, ...state });
      else done += 1;
    }
  }
  return { done, open };
}
