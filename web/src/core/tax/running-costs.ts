// Vehicle running costs (fuel, repairs, insurance, tax, hire), paid or deducted by a courier:
// how each counts with its vehicle, and an actual-cost vehicle's business share of them. Shared
// by the tax year's totals and the comparison of the two vehicle methods.
import type { ExpenseCategory, VehicleContent } from '@/sync/types';
import { expenseCategory } from './expense-categories';
import { businessShareOf } from './mileage-claim';

/** How a cost counts: in full, covered by the flat mileage rate, or × the log's business share. */
export type CostTreatment = 'full' | 'businessShare' | 'coveredByMileage';

/** What the share needs of a cost; `allowed` is written. */
export interface RunningCost {
  category: ExpenseCategory;
  paid: number;
  allowed: number;
}

/**
 * Splits `total` over parts in proportion to `weights`, in whole pence that add up to it
 * exactly (largest remainder first, earlier parts first on a tie), so a CSV's rows sum to the
 * figure the screen shows.
 */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return weights.map(() => 0);
  const parts = weights.map((weight) => Math.floor((total * weight) / sum));
  const remainders = weights.map((weight, index) => ({ index, rest: (total * weight) % sum }));
  let left = total - parts.reduce((a, b) => a + b, 0);
  for (const { index } of remainders.sort((a, b) => b.rest - a.rest || a.index - b.index)) {
    if (left <= 0) break;
    parts[index] = (parts[index] as number) + 1;
    left -= 1;
  }
  return parts;
}

/** How a cost with `category` and `vehicle` counts: in full, covered by the flat rate, or shared by the log. */
export function costTreatment(category: ExpenseCategory, vehicle: Pick<VehicleContent, 'method'> | undefined): CostTreatment {
  if (!expenseCategory(category).runningCost || !vehicle) return 'full';
  return vehicle.method === 'flatRate' ? 'coveredByMileage' : 'businessShare';
}

/**
 * The allowed part of one vehicle's running costs at its business-use share: one round-half-up
 * per category (as a return totals each kind of cost), spread back over the rows in whole pence.
 * Returns the allowed total; each row's `allowed` is set. Used for actual-cost vehicles and, to
 * compare the methods, for what a flat-rate vehicle would have claimed.
 */
export function shareRunningCosts(rows: readonly RunningCost[], miles: { businessMiles: number; totalMiles: number }): number {
  let allowed = 0;
  for (const category of new Set(rows.map((row) => row.category))) {
    const own = rows.filter((row) => row.category === category);
    const share = businessShareOf(
      own.reduce((sum, row) => sum + row.paid, 0),
      miles,
    );
    apportion(
      share,
      own.map((row) => row.paid),
    ).forEach((part, index) => {
      (own[index] as { allowed: number }).allowed = part;
    });
    allowed += share;
  }
  return allowed;
}
