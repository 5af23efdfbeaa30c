import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { LocalDb } from '@/sync/db';
import type { LocalExpense } from '@/sync/types';

/** Newest first; two on one day, the later-made first. */
export function byNewest(a: LocalExpense, b: LocalExpense): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0;
}

/** Every live (not deleted) expense on the device, newest first. */
export async function readExpenses(db: LocalDb): Promise<LocalExpense[]> {
  const live = await db.expenses.where('deleted').equals(0).toArray();
  return live.sort(byNewest);
}

/** The driver's expenses from the device, updated as they change; undefined on the first read. */
export function useExpenses(): LocalExpense[] | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(() => readExpenses(db), [db]);
}
