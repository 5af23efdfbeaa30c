// The log as the view lists it: one tax year's records by month, latest first, and the years a
// driver can pick from.
import { currentTaxYear, taxYearBounds, taxYearOf, type TaxYearLabel } from '@/core/tax/tax-year';
import type { MileageContent } from '@/sync/types';

export interface MonthGroup<R> {
  /** YYYY-MM */
  month: string;
  records: R[];
}

/** `records` (latest day first) of tax year `year`, grouped by calendar month, latest month first. */
export function monthsOfYear<R extends Pick<MileageContent, 'date'>>(records: readonly R[], year: TaxYearLabel): MonthGroup<R>[] {
  const { from, to } = taxYearBounds(year);
  const groups: MonthGroup<R>[] = [];
  for (const record of records) {
    if (record.date < from || record.date > to) continue;
    const month = record.date.slice(0, 7);
    const last = groups.at(-1);
    if (last?.month === month) last.records.push(record);
    else groups.push({ month, records: [record] });
  }
  return groups;
}

/** The current tax year and every year the log has records in, latest first. */
export function yearsOfLog(records: readonly Pick<MileageContent, 'date'>[], today: string): TaxYearLabel[] {
  const years = new Set<TaxYearLabel>([currentTaxYear(today), ...records.map((record) => taxYearOf(record.date))]);
  return [...years].sort().reverse();
}
