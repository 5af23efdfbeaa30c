// A quarterly update as HMRC's Self-Employment Business API v5 takes it: the request body of
// createAmendCumulativePeriodSummary (hmrc/self-employment-business-api,
// resources/public/api/conf/5.0/schemas/createAmendCumulativePeriodSummary/request.json), built
// from the same cumulative figures the tax year page shows. Pure and React-free: the page, the
// files and the snapshots all read it from here.
//
// How the figures map (SA103F's own convention, which the API follows: an expense field is the
// total spent, its `…Disallowable` twin the part of it that may not be claimed):
// - periodIncome.turnover: the days' saved totals. Nothing else is logged as income.
// - Itemised: each expense field is what was paid in its categories (expenses and courier
//   deductions); carVanTravelExpenses also carries the flat-rate mileage claim. The
//   disallowable twin is the part not claimed: a flat-rate vehicle's running costs (the mileage
//   rate covers them) and the private share of an actual-cost vehicle's. So field less its
//   disallowable part is exactly what the page counts.
// - Consolidated (only below the year's threshold): one consolidatedExpenses, the allowable
//   total; nothing itemised and no disallowable part (HMRC refuses both kinds together).
import type { MtdExpenseField } from '@/core/tax/expense-categories';
import { MTD_EXPENSE_FIELDS } from '@/core/tax/expense-categories';
import type { RunningTotals } from '@/core/tax/tax-summary';
import type { TaxYearLabel } from '@/core/tax/tax-year';
import { consolidatedExpensesAllowed } from './quarters';

export type ExpensesShape = 'itemised' | 'consolidated';

export type DisallowableField = `${MtdExpenseField}Disallowable`;

/** A figure of the update by its HMRC field name. */
export type UpdateFigureKey = 'turnover' | 'consolidatedExpenses' | MtdExpenseField | DisallowableField;

/** Pence, in the request's shape (turned into pounds only when written out). */
export interface UpdateFigures {
  periodDates: { periodStartDate: string; periodEndDate: string };
  periodIncome: { turnover: number };
  periodExpenses: Partial<Record<MtdExpenseField, number>> & { consolidatedExpenses?: number };
  periodDisallowableExpenses?: Partial<Record<DisallowableField, number>>;
}

export interface UpdatePeriod {
  year: TaxYearLabel;
  periodStart: string;
  periodEnd: string;
  totals: RunningTotals;
}

/** Whether the driver may choose consolidated expenses for this year's updates (turnover so far). */
export function consolidatedOffered(year: TaxYearLabel, yearTurnover: number): boolean {
  return consolidatedExpensesAllowed(year, yearTurnover);
}

/** The update's figures, in pence. Consolidated is refused above the threshold. */
export function updateFigures(period: UpdatePeriod, shape: ExpensesShape, yearTurnover: number): UpdateFigures {
  if (shape === 'consolidated' && !consolidatedOffered(period.year, yearTurnover)) {
    throw new Error('Consolidated expenses are only allowed below the turnover threshold');
  }
  const { totals } = period;
  const base = {
    periodDates: { periodStartDate: period.periodStart, periodEndDate: period.periodEnd },
    periodIncome: { turnover: totals.turnover },
  };
  if (shape === 'consolidated') return { ...base, periodExpenses: { consolidatedExpenses: totals.allowable } };

  const spent = Object.fromEntries(MTD_EXPENSE_FIELDS.map(({ field }) => [field, 0])) as Record<MtdExpenseField, number>;
  const disallowed = { ...spent };
  for (const category of totals.costs.byCategory) {
    spent[category.mtdField] += category.paid;
    disallowed[category.mtdField] += category.paid - category.allowed;
  }
  spent.carVanTravelExpenses += totals.mileage.claimPence;
  const periodDisallowableExpenses: Partial<Record<DisallowableField, number>> = {};
  for (const { field } of MTD_EXPENSE_FIELDS) if (disallowed[field] !== 0) periodDisallowableExpenses[`${field}Disallowable`] = disallowed[field];
  return {
    ...base,
    periodExpenses: spent,
    ...(Object.keys(periodDisallowableExpenses).length > 0 ? { periodDisallowableExpenses } : {}),
  };
}

/** What the update claims: expenses less their disallowable parts (the page's allowable total). */
export function claimedExpenses(figures: UpdateFigures): number {
  const spent = Object.values(figures.periodExpenses).reduce((sum, value) => sum + (value ?? 0), 0);
  const disallowed = Object.values(figures.periodDisallowableExpenses ?? {}).reduce((sum, value) => sum + (value ?? 0), 0);
  return spent - disallowed;
}

/** The update's figures in the order the request carries them, zeros left out (turnover always shown). */
export function figureList(figures: UpdateFigures): { key: UpdateFigureKey; group: string; amount: number }[] {
  const list: { key: UpdateFigureKey; group: string; amount: number }[] = [{ key: 'turnover', group: 'periodIncome', amount: figures.periodIncome.turnover }];
  for (const [key, amount] of Object.entries(figures.periodExpenses)) if (amount) list.push({ key: key as UpdateFigureKey, group: 'periodExpenses', amount });
  for (const [key, amount] of Object.entries(figures.periodDisallowableExpenses ?? {})) if (amount) list.push({ key: key as UpdateFigureKey, group: 'periodDisallowableExpenses', amount });
  return list;
}

/** Integer pence as a JSON number of pounds: an integer divided by 100 prints its exact 2 decimals. */
const pounds = (pence: number) => pence / 100;

function inPounds<T extends Record<string, number | undefined>>(figures: T): Record<string, number> {
  return Object.fromEntries(Object.entries(figures).map(([key, value]) => [key, pounds(value ?? 0)]));
}

/** The request body, exactly as the file holds it (2-space JSON, a final newline). */
export function updateJson(figures: UpdateFigures): string {
  const body = {
    periodDates: figures.periodDates,
    periodIncome: inPounds(figures.periodIncome),
    periodExpenses: inPounds(figures.periodExpenses),
    ...(figures.periodDisallowableExpenses ? { periodDisallowableExpenses: inPounds(figures.periodDisallowableExpenses) } : {}),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}

/** A figure's name on the screen, by its HMRC field ("periodIncome.turnover" or "turnover"). */
export function figureLabel(field: string): string {
  const key = field.split('.').at(-1) ?? field;
  if (key === 'turnover') return 'Turnover';
  if (key === 'consolidatedExpenses') return 'Allowable expenses (one total)';
  const disallowable = key.endsWith('Disallowable');
  const label = MTD_EXPENSE_FIELDS.find(({ field: name }) => name === (disallowable ? key.slice(0, -'Disallowable'.length) : key))?.label;
  if (!label) return field;
  return disallowable ? `${label}: not claimed` : label;
}

/** "mtd-update-2026-27-Q1.json" */
export function updateFileName(year: TaxYearLabel, quarter: number, ext: 'json' | 'csv'): string {
  return `mtd-update-${year}-Q${quarter}.${ext}`;
}
