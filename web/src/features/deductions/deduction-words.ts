// A deduction in words: its schedule ("Weekly from 03/03/2025", "Monthly from 15/03/2025 until
// 15/09/2025", "Once on 21/03/2025") and what it is for ("Vehicle hire or lease · Transit").
import { formatShortDate } from '@/lib/format';
import { expenseCategory } from '@/core/tax/expense-categories';
import type { DeductionContent } from '@/sync/types';

export function scheduleWords({ repeat, from, to }: Pick<DeductionContent, 'repeat' | 'from' | 'to'>): string {
  if (repeat === 'once') return `Once on ${formatShortDate(from)}`;
  const start = `${repeat === 'weekly' ? 'Weekly' : 'Monthly'} from ${formatShortDate(from)}`;
  return to === null ? start : `${start} until ${formatShortDate(to)}`;
}

/**
 * What it is for, and a vehicle cost's vehicle: "Vehicle hire or lease · Transit", "… · no
 * vehicle"; "Not said what it is for" for one saved before deductions could say.
 */
export function purposeWords({ purpose, vehicleId }: Pick<DeductionContent, 'purpose' | 'vehicleId'>, vehicles: readonly { id: string; name: string }[]): string {
  if (purpose === null) return 'Not said what it is for';
  const info = expenseCategory(purpose);
  if (vehicleId !== null) return `${info.label} · ${vehicles.find((vehicle) => vehicle.id === vehicleId)?.name ?? 'Deleted vehicle'}`;
  return info.runningCost ? `${info.label} · no vehicle` : info.label;
}
