// The records behind each figure of an update, so one tap on a figure lists them: the days for
// turnover; the expenses and deductions (each occurrence, what was paid) and the flat-rate
// mileage lines for an expense field; the part not claimed for a disallowable field.
import { expenseCategory } from '@/core/tax/expense-categories';
import type { RunningTotals, TaxRecords } from '@/core/tax/tax-summary';
import type { UpdateFigureKey } from './update';

export interface RecordLine {
  kind: 'entry' | 'expense' | 'deduction' | 'mileage';
  recordId: string;
  date: string;
  text: string;
  amount: number;
}

export type FigureKey = UpdateFigureKey;

/** Every figure's records, oldest first; a line's amounts add up to the figure. */
export function recordsBehind(period: { from: string; to: string; totals: RunningTotals }, records: TaxRecords): Map<FigureKey, RecordLine[]> {
  const behind = new Map<FigureKey, RecordLine[]>();
  // Appended in place: copying the list for each line made a year's days quadratic (issue 30).
  const add = (key: FigureKey, line: RecordLine) => {
    const lines = behind.get(key);
    if (lines) lines.push(line);
    else behind.set(key, [line]);
  };
  const courierName = new Map(records.couriers.map((courier) => [courier.id, courier.name]));
  const vehicleName = new Map(records.vehicles.map((vehicle) => [vehicle.id, vehicle.name]));

  for (const entry of records.entries) {
    if (entry.deleted === 1 || entry.date < period.from || entry.date > period.to) continue;
    add('turnover', { kind: 'entry', recordId: entry.id, date: entry.date, text: `Day for ${courierName.get(entry.courierId) ?? 'a removed courier'}`, amount: entry.total });
  }
  for (const occurrence of period.totals.costs.occurrences) {
    const info = expenseCategory(occurrence.category);
    const text = `${info.label}${occurrence.note ? `: ${occurrence.note}` : ''}${occurrence.source === 'deduction' ? ' (deducted by the courier)' : ''}`;
    const line = { kind: occurrence.source, recordId: occurrence.recordId, date: occurrence.date, text };
    add(info.mtdField, { ...line, amount: occurrence.paid });
    if (occurrence.allowed !== 0) add('consolidatedExpenses', { ...line, amount: occurrence.allowed });
    if (occurrence.paid !== occurrence.allowed) add(`${info.mtdField}Disallowable`, { ...line, text: `${text}, not claimed`, amount: occurrence.paid - occurrence.allowed });
  }
  for (const vehicle of period.totals.mileage.vehicles) {
    for (const mileage of vehicle.lines) {
      if (mileage.claimPence === 0) continue;
      const line: RecordLine = { kind: 'mileage', recordId: mileage.recordId, date: mileage.date, text: `${vehicleName.get(vehicle.vehicleId) ?? vehicle.name}: ${mileage.businessMiles} business miles at the flat rate`, amount: mileage.claimPence };
      add('carVanTravelExpenses', line);
      add('consolidatedExpenses', line);
    }
  }
  for (const lines of behind.values()) lines.sort((a, b) => a.date.localeCompare(b.date));
  return behind;
}

/**
 * The period's records saved after `since` (a snapshot's time): what changed a sent quarter.
 * A deleted record is gone from the records, so it shows only in the figures' difference.
 */
export function changedAfter(period: { from: string; to: string }, records: TaxRecords, since: string): RecordLine[] {
  const after = (record: { updatedAt?: string }) => record.updatedAt !== undefined && record.updatedAt > since;
  const inPeriod = (date: string) => date >= period.from && date <= period.to;
  const courierName = new Map(records.couriers.map((courier) => [courier.id, courier.name]));
  const lines: RecordLine[] = [
    ...records.entries.filter((e) => e.deleted !== 1 && inPeriod(e.date) && after(e)).map((e) => ({ kind: 'entry' as const, recordId: e.id, date: e.date, text: `Day for ${courierName.get(e.courierId) ?? 'a removed courier'}`, amount: e.total })),
    ...records.expenses.filter((e) => e.deleted !== 1 && inPeriod(e.date) && after(e)).map((e) => ({ kind: 'expense' as const, recordId: e.id, date: e.date, text: `${expenseCategory(e.category).label}${e.note ? `: ${e.note}` : ''}`, amount: e.amount })),
    ...records.deductions.filter((d) => d.deleted !== 1 && d.from <= period.to && after(d)).map((d) => ({ kind: 'deduction' as const, recordId: d.id, date: d.from, text: `Deduction: ${d.label}`, amount: d.amount })),
    ...records.mileage.filter((m) => m.deleted !== 1 && inPeriod(m.date) && after(m)).map((m) => ({ kind: 'mileage' as const, recordId: m.id, date: m.date, text: `${m.businessMiles} business miles`, amount: 0 })),
  ];
  return lines.sort((a, b) => a.date.localeCompare(b.date));
}
