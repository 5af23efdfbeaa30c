// What the tax year changes itself: linking vehicle costs that name no vehicle to the flat-rate
// vehicle they were for, so they are claimed once (the rate covers them). All of them or none,
// in one transaction with their outbox items (sync/commands.ts saveRecords), then a sync.
import { saveRecords, type RecordWrite } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import { contentOf } from '@/sync/records';
import type { CostSource } from '@/core/tax/tax-summary';

/** Links each expense and deduction of `costs` still on the device to `vehicleId`; returns how many changed. */
export async function linkCostsToVehicle(handle: SyncHandle, costs: readonly { source: CostSource; recordId: string }[], vehicleId: string): Promise<number> {
  const { db } = handle;
  const expenses = await db.expenses.bulkGet(costs.filter((c) => c.source === 'expense').map((c) => c.recordId));
  const deductions = await db.deductions.bulkGet(costs.filter((c) => c.source === 'deduction').map((c) => c.recordId));
  const writes: RecordWrite[] = [
    ...expenses.flatMap((e) => (e && e.deleted === 0 && e.vehicleId === null ? [{ kind: 'expense' as const, id: e.id, content: { ...contentOf('expense', e), vehicleId } }] : [])),
    ...deductions.flatMap((d) => (d && d.deleted === 0 && d.vehicleId === null ? [{ kind: 'deduction' as const, id: d.id, content: { ...contentOf('deduction', d), vehicleId } }] : [])),
  ];
  if (writes.length === 0) return 0;
  await saveRecords(db, writes);
  return writes.length;
}
