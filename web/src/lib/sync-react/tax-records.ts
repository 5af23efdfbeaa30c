// The records the tax year is made from, read from the device's store: the tax year page and
// the dashboard's reminders (changes since an update was sent) both read them, so they live
// here rather than in either feature. Works offline and follows every change.
import { liveRecords } from './use-live-entries';
import { readPaySetup } from './use-pay-setup';
import { readVehicles } from './use-vehicles';
import type { TaxRecords } from '@/core/tax/tax-summary';
import type { LocalDb } from '@/sync/db';
import type { LocalCourier, LocalEntry, LocalExpense, LocalMileage } from '@/sync/types';

/** The tax records as the device holds them: whole entries and couriers (statement checks read their counts and pay periods). */
export interface DeviceTaxRecords extends TaxRecords {
  entries: readonly LocalEntry[];
  couriers: readonly LocalCourier[];
}

export async function readTaxRecords(db: LocalDb): Promise<DeviceTaxRecords> {
  return readWith(db, {
    entries: async () => liveRecords(await db.entries.toArray()),
    ...liveExpensesAndMileage(db),
  });
}

/** Every live expense and mileage log, in id order: whole tables (see readEntries for why not by the `deleted` index). */
function liveExpensesAndMileage(db: LocalDb): Pick<Readers, 'expenses' | 'mileage'> {
  return {
    expenses: async () => liveRecords(await db.expenses.toArray()),
    mileage: async () => liveRecords(await db.mileage.toArray()),
  };
}

/**
 * Every tax record but the entries, read as readTaxRecords reads them: the screen takes its
 * entries from the live entries every screen part shares (lib/sync-react/use-live-entries.ts),
 * which the header's day button has read already, instead of reading all of them a second
 * time (issue 30: ten years are thousands of days). withEntries puts them back together.
 */
export async function readTaxRecordsBesidesEntries(db: LocalDb): Promise<Omit<DeviceTaxRecords, 'entries'>> {
  const { entries: _none, ...rest } = await readWith(db, {
    entries: () => Promise.resolve([]),
    ...liveExpensesAndMileage(db),
  });
  return rest;
}

/** The tax records from the rest and the live (not deleted) entries, in id order as readTaxRecords gives them. */
export function withEntries(rest: Omit<DeviceTaxRecords, 'entries'>, entries: readonly LocalEntry[]): DeviceTaxRecords {
  return { ...rest, entries: [...entries].sort(byId) };
}

/**
 * The tax records of the days `from` to `to` (both included), read through the date indexes:
 * the days and mileage dated in them, and every expense dated on or before `to` (an expense
 * that repeats counts on later dates, never earlier ones). What a period's figures need and no
 * more: a ten-year device reads one year, not ten, and a live query over them runs again only
 * when a record in those dates changes (issue 30). Couriers, cards, deductions and vehicles are
 * few and read whole.
 */
export async function readTaxRecordsBetween(db: LocalDb, from: string, to: string): Promise<DeviceTaxRecords> {
  // In id order, as the whole tables are read: the same records in the same order, fewer of them.
  const live = <T extends { id: string; deleted: 0 | 1 }>(records: T[]) => liveRecords(records).sort(byId);
  return readWith(db, {
    entries: async () => (await db.entries.where('[deleted+date]').between([0, from], [0, to], true, true).toArray()).sort(byId),
    expenses: async () => live(await db.expenses.where('date').belowOrEqual(to).toArray()),
    mileage: async () => live(await db.mileage.where('date').between(from, to, true, true).toArray()),
  });
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

interface Readers {
  entries: () => Promise<LocalEntry[]>;
  expenses: () => Promise<LocalExpense[]>;
  mileage: () => Promise<LocalMileage[]>;
}

async function readWith(db: LocalDb, read: Readers): Promise<DeviceTaxRecords> {
  const [entries, pay, allCouriers, expenses, vehicles, mileage] = await Promise.all([
    read.entries(),
    readPaySetup(db),
    db.couriers.toArray(),
    read.expenses(),
    // Deleted vehicles too: their miles were driven and their costs paid.
    readVehicles(db, true),
    read.mileage(),
  ]);
  // A deleted courier's days still count and keep its name; the pay setup adds the default
  // courier before the first pull has brought it.
  const known = new Set(pay.couriers.map((courier) => courier.id));
  const couriers = [...pay.couriers, ...allCouriers.filter((courier) => !known.has(courier.id))];
  return { entries, couriers, deductions: pay.deductions, expenses, vehicles, mileage };
}
