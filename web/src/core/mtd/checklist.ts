// The year-end checklist before the final declaration: every quarter sent, nothing changed since
// without a later update carrying it, every vehicle's method settled, and receipts kept. Pure:
// the screen passes what it knows.
import type { TaxYearLabel } from '@/core/tax/tax-year';

export interface ChecklistInput {
  year: TaxYearLabel;
  /** Each quarter: whether a snapshot stands, and whether the records changed since. */
  quarters: { number: number; sent: boolean; changedSinceSent: boolean }[];
  /** Vehicles whose method is still open this year (no earlier year's records used one). */
  openVehicles: string[];
  /** The year's expenses with no receipt photo. */
  expensesWithoutReceipts: number;
}

export interface ChecklistItem {
  id: 'quarters' | 'changes' | 'vehicles' | 'receipts';
  done: boolean;
  text: string;
}

const list = (numbers: number[]) => numbers.map((n) => `Q${n}`).join(', ');

export function yearEndChecklist({ quarters, openVehicles, expensesWithoutReceipts }: ChecklistInput): ChecklistItem[] {
  const unsent = quarters.filter((q) => !q.sent).map((q) => q.number);
  const changed = quarters.filter((q) => q.sent && q.changedSinceSent).map((q) => q.number);
  // A change in a quarter is carried by any later quarter sent after it: only the last sent one's changes are unexplained.
  const lastSent = Math.max(0, ...quarters.filter((q) => q.sent).map((q) => q.number));
  const unexplained = changed.filter((n) => n === lastSent);
  return [
    { id: 'quarters', done: unsent.length === 0, text: unsent.length === 0 ? 'Every quarterly update is marked as sent' : `Not marked as sent: ${list(unsent)}` },
    {
      id: 'changes',
      done: unexplained.length === 0,
      text: unexplained.length === 0 ? 'No changes since the last update sent' : `Changed since sent, not yet in a later update: ${list(unexplained)}`,
    },
    {
      id: 'vehicles',
      done: openVehicles.length === 0,
      text: openVehicles.length === 0 ? 'Every vehicle’s method is settled' : `Method still to choose for good: ${openVehicles.join(', ')} (once a return uses it, it stays with the vehicle)`,
    },
    {
      id: 'receipts',
      done: expensesWithoutReceipts === 0,
      text: expensesWithoutReceipts === 0 ? 'Every expense has a receipt photo' : `${expensesWithoutReceipts} ${expensesWithoutReceipts === 1 ? 'expense has' : 'expenses have'} no receipt photo`,
    },
  ];
}
