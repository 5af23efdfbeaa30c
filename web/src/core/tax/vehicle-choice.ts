// Which vehicle a cost is for, as the expense and deduction forms ask it. A vehicle running cost
// (fuel, repairs, insurance, tax, hire) is claimed differently with each vehicle: covered by the
// mileage rate of a flat-rate one, shared by the log of an actual-cost one. So while the driver
// has a vehicle, such a cost asks which one, and "No vehicle" is an answer the driver gives, never
// a default left in place (a cost silently left unlinked would be claimed twice).
import type { ExpenseCategory } from '@/sync/types';
import { expenseCategory } from './expense-categories';

/** The form value of a deliberate "No vehicle"; '' is "not chosen yet". */
export const NO_VEHICLE = 'none';

export const vehicleChoiceMessages = {
  choose: 'Please choose the vehicle this is for, or No vehicle',
} as const;

/** Whether a cost of `category` must say which vehicle: a running cost, while the driver has one. */
export function asksForVehicle(category: ExpenseCategory | '' | null, hasVehicles: boolean): boolean {
  return hasVehicles && category !== '' && category !== null && expenseCategory(category).runningCost;
}

/** The form's value for a stored vehicle id: '' (not chosen) for none, so the question is asked again. */
export function vehicleChoiceOf(vehicleId: string | null): string {
  return vehicleId ?? '';
}

/** The stored vehicle id of a choice: null for "No vehicle" and for no answer. */
export function vehicleIdOf(choice: string): string | null {
  return choice === '' || choice === NO_VEHICLE ? null : choice;
}

/** The problem with a choice, if the cost must say its vehicle and does not. */
export function vehicleChoiceProblem(choice: string, asked: boolean): string | null {
  return asked && choice === '' ? vehicleChoiceMessages.choose : null;
}
