// Changes since sent that no update carries yet. Updates are cumulative from the start of the
// year, so the last update sent for a year carries every change made before it was sent; what
// it does not carry is exactly the difference between its file and the figures the records give
// now for the same period and shape. That difference goes into the next cumulative update (or,
// after Q4, the final declaration). The quarters named are those whose own dates hold the
// records saved after that last update; a deleted record leaves no record behind, so then the
// quarter is found from the files: the earliest sent quarter whose own difference is the same.
import { runningTotals, turnoverByYear, type TaxRecords } from '@/core/tax/tax-summary';
import type { TaxYearLabel } from '@/core/tax/tax-year';
import { changedAfter } from './behind';
import { consolidatedExpensesAllowed, mtdQuarters } from './quarters';
import { changesSinceSent, standingSent, type FigureChange, type SentRecord } from './sent';
import { updateFigures, updateJson } from './update';

export interface UncarriedChange {
  year: TaxYearLabel;
  /** The quarters whose own dates hold the change, oldest first. */
  quarters: readonly number[];
  /** The last update sent for the year, which does not carry the change. */
  lastSent: number;
  /** Its figures against the records now, field by field. */
  changes: readonly FigureChange[];
}

/** The file the records give now for a sent update's own period and shape. */
export function fileNow(records: TaxRecords, sent: Pick<SentRecord, 'taxYear' | 'periodStart' | 'periodEnd' | 'shape'>, today: string): string {
  const year = sent.taxYear as TaxYearLabel;
  const yearTurnover = turnoverByYear(records.entries)(year);
  // Consolidated is refused once the year's turnover reaches the threshold: the figures are then
  // shown itemised, and every field differs from the file sent, as it should.
  const shape = sent.shape === 'consolidated' && !consolidatedExpensesAllowed(year, yearTurnover) ? 'itemised' : sent.shape;
  const totals = runningTotals(records, year, sent.periodEnd, today, sent.periodStart);
  return updateJson(updateFigures({ year, periodStart: sent.periodStart, periodEnd: sent.periodEnd, totals }, shape, yearTurnover));
}

/** Two lists of changes move the same fields by the same amounts. */
const differences = (changes: readonly FigureChange[]) => changes.map((change) => `${change.field}:${change.now - change.sent}`).join(',');
const sameChanges = (a: readonly FigureChange[], b: readonly FigureChange[]) => differences(a) === differences(b);

/** For each year with an update sent, oldest first: what its last update sent does not carry. */
export function uncarriedChanges(records: TaxRecords, sentUpdates: readonly SentRecord[], today: string): UncarriedChange[] {
  const years = [...new Set(sentUpdates.filter((sent) => sent.deleted !== 1).map((sent) => sent.taxYear as TaxYearLabel))].sort();
  const found: UncarriedChange[] = [];
  for (const year of years) {
    const standing = [1, 2, 3, 4].map((quarter) => standingSent(sentUpdates, year, quarter)).filter((sent): sent is SentRecord => sent !== null);
    const last = standing.at(-1);
    if (!last) continue;
    const changes = changesSinceSent(last.file, fileNow(records, last, today));
    if (changes.length === 0) continue;
    const own = mtdQuarters(year, last.quarters);
    const quarterHolding = (day: string): number | null => own.find((q) => q.from <= day && day <= q.to)?.number ?? null;
    // A repeating deduction changed later is dated from its first day: it counts from the period's start.
    const dates = changedAfter({ from: last.periodStart, to: last.periodEnd }, records, last.createdAt).map((line) => (line.date < last.periodStart ? last.periodStart : line.date));
    let quarters: number[] = [...new Set(dates.map(quarterHolding).filter((n): n is number => n !== null && n <= last.quarter))].sort((a, b) => a - b);
    if (quarters.length === 0) {
      const first = standing.find((sent) => sameChanges(changesSinceSent(sent.file, fileNow(records, sent, today)), changes));
      quarters = [first?.quarter ?? last.quarter];
    }
    found.push({ year, quarters, lastSent: last.quarter, changes });
  }
  return found;
}
