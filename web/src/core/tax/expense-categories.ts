// The expense categories a driver picks from, in their words, and where each lands on the
// Self Assessment self-employment pages (SA103F boxes 17–30) and in a Making Tax Digital
// update (the self-employment period summary's expense fields).
import type { ExpenseCategory } from '@/sync/types';

export type Sa103Box = 20 | 21 | 22 | 23 | 26 | 28 | 30;

export type MtdExpenseField = 'carVanTravelExpenses' | 'premisesRunningCosts' | 'maintenanceCosts' | 'adminCosts' | 'financeCharges' | 'professionalFees' | 'otherExpenses';

export interface ExpenseCategoryInfo {
  id: ExpenseCategory;
  label: string;
  box: Sa103Box;
  mtdField: MtdExpenseField;
  /**
   * A vehicle running cost: covered by the mileage rate for a flat-rate vehicle (not counted),
   * counted × the business-use share for an actual-cost vehicle, in full with no vehicle.
   */
  runningCost: boolean;
}

/** The SA103F box titles, as the form words them. */
export const SA103_BOXES: Record<Sa103Box, string> = {
  20: 'Car, van and travel expenses',
  21: 'Rent, rates, power and insurance costs',
  22: 'Repairs and maintenance of property and equipment',
  23: 'Phone, fax, stationery and other office costs',
  26: 'Bank, credit card and other financial charges',
  28: 'Accountancy, legal and other professional fees',
  30: 'Other business expenses',
};

/**
 * The MTD expense fields in the order HMRC's self-employment period summary lists them, with a
 * label for people (the quarterly summary CSV's column headers name both).
 */
export const MTD_EXPENSE_FIELDS: readonly { field: MtdExpenseField; label: string }[] = [
  { field: 'carVanTravelExpenses', label: 'Car, van and travel' },
  { field: 'premisesRunningCosts', label: 'Premises running costs' },
  { field: 'maintenanceCosts', label: 'Repairs and maintenance' },
  { field: 'adminCosts', label: 'Admin costs' },
  { field: 'financeCharges', label: 'Finance charges' },
  { field: 'professionalFees', label: 'Professional fees' },
  { field: 'otherExpenses', label: 'Other expenses' },
];

/** In the order the picker lists them: vehicle costs first, as they are a driver's most common. */
export const EXPENSE_CATEGORIES: readonly ExpenseCategoryInfo[] = [
  { id: 'fuel', label: 'Fuel', box: 20, mtdField: 'carVanTravelExpenses', runningCost: true },
  { id: 'vehicleRepairs', label: 'Vehicle repairs and servicing', box: 20, mtdField: 'carVanTravelExpenses', runningCost: true },
  { id: 'vehicleInsurance', label: 'Vehicle insurance', box: 20, mtdField: 'carVanTravelExpenses', runningCost: true },
  { id: 'vehicleTax', label: 'Vehicle tax and MOT', box: 20, mtdField: 'carVanTravelExpenses', runningCost: true },
  { id: 'vehicleHire', label: 'Vehicle hire or lease', box: 20, mtdField: 'carVanTravelExpenses', runningCost: true },
  { id: 'parkingTolls', label: 'Parking, tolls and congestion charges', box: 20, mtdField: 'carVanTravelExpenses', runningCost: false },
  { id: 'travel', label: 'Train, bus and other travel', box: 20, mtdField: 'carVanTravelExpenses', runningCost: false },
  { id: 'phone', label: 'Phone and data', box: 23, mtdField: 'adminCosts', runningCost: false },
  { id: 'office', label: 'Stationery, postage and office costs', box: 23, mtdField: 'adminCosts', runningCost: false },
  { id: 'subscriptions', label: 'Software and subscriptions', box: 23, mtdField: 'adminCosts', runningCost: false },
  { id: 'equipment', label: 'Equipment (scanner, trolley, sat nav)', box: 30, mtdField: 'otherExpenses', runningCost: false },
  { id: 'clothing', label: 'Uniform and protective clothing', box: 30, mtdField: 'otherExpenses', runningCost: false },
  { id: 'insurance', label: 'Business insurance (goods in transit, liability)', box: 21, mtdField: 'premisesRunningCosts', runningCost: false },
  { id: 'bankCharges', label: 'Bank and card charges', box: 26, mtdField: 'financeCharges', runningCost: false },
  { id: 'accountancy', label: 'Accountant and professional fees', box: 28, mtdField: 'professionalFees', runningCost: false },
  { id: 'other', label: 'Other business costs', box: 30, mtdField: 'otherExpenses', runningCost: false },
];

/** The category ids, as a non-empty tuple (the forms' enum of choices). */
export const EXPENSE_CATEGORY_IDS = EXPENSE_CATEGORIES.map((category) => category.id) as [ExpenseCategory, ...ExpenseCategory[]];

const BY_ID = new Map(EXPENSE_CATEGORIES.map((category) => [category.id, category]));

export function expenseCategory(id: ExpenseCategory): ExpenseCategoryInfo {
  const info = BY_ID.get(id);
  if (!info) throw new Error(`unknown expense category ${id}`);
  return info;
}
