// The year-end checklist before the final declaration: every quarter sent, nothing changed since
// without a later update carrying it, every vehicle's method settled, the statement checks of the
// year done, and receipts kept. Pure: the screen passes what it knows.
import { listText } from '@/lib/format';
import { historyView } from '@/lib/paths';
import { periodWords } from '@/core/pay-periods/pay-period';
import type { OpenPeriodCheck, YearStatementChecks } from '@/core/statements/year-checks';
import type { TaxYearLabel } from '@/core/tax/tax-year';
import type { UncarriedChange } from './uncarried';

export interface ChecklistInput {
  year: TaxYearLabel;
  /** Each quarter: whether a snapshot stands. */
  quarters: { number: number; sent: boolean }[];
  /** What the year's last update sent does not carry, if anything (core/mtd/uncarried.ts, the reminders' rule too). */
  uncarried: UncarriedChange | null;
  /** Vehicles whose method is still open: no earlier year's records used it, no sent update claimed it. */
  openVehicles: string[];
  /** The year's pay periods and their statement checks (core/statements/year-checks.ts). */
  statementChecks: YearStatementChecks;
  /** The year's expenses with no receipt photo. */
  expensesWithoutReceipts: number;
}

export interface ChecklistItem {
  id: 'quarters' | 'changes' | 'vehicles' | 'statements' | 'receipts';
  done: boolean;
  text: string;
  /** Where to do what is left. */
  link?: { label: string; to: string };
}

/** How many open pay periods are named before "and N more". */
export const NAMED_PERIODS = 4;

const OPEN_WORDS: Record<OpenPeriodCheck['state'], string> = { missing: 'not checked', unresolved: '', notPaidYet: 'not paid yet' };

function statementsItem({ done, open }: YearStatementChecks): ChecklistItem {
  if (open.length === 0) {
    return { id: 'statements', done: true, text: done === 0 ? 'No pay period has a day logged' : `Every pay period’s statement is checked (${done === 1 ? '1 period' : `${done} periods`})` };
  }
  const named = open.slice(0, NAMED_PERIODS).map((check) => `${check.courierName} ${periodWords(check.period)} (${check.finding ?? OPEN_WORDS[check.state]})`);
  const more = open.length - NAMED_PERIODS;
  return {
    id: 'statements',
    done: false,
    text: `Statement checks to do: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
    link: { label: 'Open statement checks', to: historyView('statements') },
  };
}

const list = (numbers: readonly number[]) => numbers.map((n) => `Q${n}`).join(', ');

export function yearEndChecklist({ quarters, uncarried, openVehicles, statementChecks, expensesWithoutReceipts }: ChecklistInput): ChecklistItem[] {
  const unsent = quarters.filter((q) => !q.sent).map((q) => q.number);
  return [
    { id: 'quarters', done: unsent.length === 0, text: unsent.length === 0 ? 'Every quarterly update is marked as sent' : `Not marked as sent: ${list(unsent)}` },
    {
      id: 'changes',
      done: uncarried === null,
      text: uncarried === null ? 'No changes since the last update sent' : `Changed since sent, not yet in a later update: ${list(uncarried.quarters)}`,
    },
    {
      id: 'vehicles',
      done: openVehicles.length === 0,
      text:
        openVehicles.length === 0
          ? 'Every vehicle’s method is settled'
          : `Method still to choose for good: ${listText(openVehicles)} (once a sent update or an earlier year’s return uses it, it stays with the vehicle)`,
    },
    statementsItem(statementChecks),
    {
      id: 'receipts',
      done: expensesWithoutReceipts === 0,
      text: expensesWithoutReceipts === 0 ? 'Every expense has a receipt photo' : `${expensesWithoutReceipts} ${expensesWithoutReceipts === 1 ? 'expense has' : 'expenses have'} no receipt photo`,
    },
  ];
}
