// The records behind each figure of an update, so one tap on a figure lists them: the days for
// turnover; the expenses and deductions (each occurrence, what was paid) and the flat-rate
// mileage lines for an expense field; the part not claimed for a disallowable field.
import { expenseCategory } from '@/lib/tax/expense-categories';
import type { RunningTotals, TaxRecords } from '@/lib/tax/tax-summary';
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
  const add = (key: FigureKey, line: RecordLine) => behind.set(key, [...(behind.get(key) ?? []), line]);
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
