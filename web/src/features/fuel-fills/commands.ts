// What a driver does with fuel fills. Each call stores the record with its outbox item in one
// transaction (sync/commands.ts) and nudges the engine; components call only these.
import { deleteRecord, saveRecord, saveRecords, undoDelete, type RecordWrite } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import { nameId, newId } from '@/sync/ids';
import type { ExpenseContent, FuelFillContent, LocalFuelFill } from '@/sync/types';

/** Saves a new fill (no id) or an edit of one. */
export async function saveFuelFill(handle: SyncHandle, fill: FuelFillContent, id?: string): Promise<LocalFuelFill> {
  return saveRecord(handle.db, 'fuelFill', fill, id);
}

/**
 * The id of the Fuel expense a fill is also logged as: a name-based UUID of the fill's id, so
 * asking again, after an edit or on another device, names the same expense and never a second.
 */
export function fillExpenseId(fillId: string): Promise<string> {
  return nameId(fillId, 'fuel-expense');
}

/** The Fuel expense of a fill: its day, cost and vehicle, once. */
export function fuelExpenseOf(fill: FuelFillContent): ExpenseContent {
  return { date: fill.date, amount: fill.cost, category: 'fuel', note: fill.note || 'Fuel fill', courierId: null, vehicleId: fill.vehicleId, repeat: 'once', repeatUntil: null, receipts: [] };
}

/**
 * Saves a fill and logs it as a normal Fuel expense too, in one transaction. Money is counted
 * once: the expense is what the tax year counts (covered by the mileage rate for a flat-rate
 * vehicle, as any fuel expense), never the fill. The expense is made once: when its id is on the
 * device already (kept, edited or deleted by the driver since), it is left as it is. A free
 * charge (no cost) is no expense.
 */
export async function saveFuelFillAsExpense(handle: SyncHandle, fill: FuelFillContent, id?: string): Promise<LocalFuelFill> {
  const fillId = id ?? newId();
  const expenseId = await fillExpenseId(fillId);
  const writes: RecordWrite[] = [{ kind: 'fuelFill', content: fill, id: fillId }];
  if (fill.cost > 0 && !(await handle.db.expenses.get(expenseId))) writes.push({ kind: 'expense', content: fuelExpenseOf(fill), id: expenseId });
  const [saved] = await saveRecords(handle.db, writes);
  return saved as LocalFuelFill;
}

/** Whether the fill has been logged as a Fuel expense on this device (kept or deleted since). */
export async function hasFuelExpense(handle: SyncHandle, fillId: string): Promise<boolean> {
  return (await handle.db.expenses.get(await fillExpenseId(fillId))) !== undefined;
}

export async function deleteFuelFill(handle: SyncHandle, id: string): Promise<void> {
  await deleteRecord(handle.db, 'fuelFill', id);
}

export async function restoreFuelFill(handle: SyncHandle, before: LocalFuelFill): Promise<void> {
  await undoDelete(handle.db, 'fuelFill', before);
}
