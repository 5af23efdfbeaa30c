// The record kinds synced one record at a time with tombstones (entries, statement checks,
// couriers, rate cards, deductions, expenses, vehicles, mileage):
// their content on the wire, where each lives on the device and which mutations carry it.
// Everything generic (save, delete, merge, pull, acknowledge, discard) goes through this table,
// so a new kind is one row here rather than a second copy of the sync code.
import type { Table } from 'dexie';
import { z } from '../lib/zod';
import type { LocalDb } from './db';
import type {
  CourierContent,
  DeductionContent,
  EntryContent,
  ExpenseContent,
  InvoiceContent,
  LocalRecord,
  MileageContent,
  MutationName,
  RateCardContent,
  VehicleContent,
} from './types';

export interface RecordContents {
  entry: EntryContent;
  invoice: InvoiceContent;
  courier: CourierContent;
  rateCard: RateCardContent;
  deduction: DeductionContent;
  expense: ExpenseContent;
  vehicle: VehicleContent;
  mileage: MileageContent;
}

export type RecordKind = keyof RecordContents;

/** Plain Table typing: Dexie's EntityTable generics do not survive indexing by kind. */
export type RecordTable<K extends RecordKind> = Table<LocalRecord<RecordContents[K]>, string>;

const day = z.string();
const pence = z.number().int();
const count = z.number().int();
const tier = z.object({ stopCount: z.number().int().optional(), rate: pence });
const peak = z.object({ from: day, to: day, extraPerStop: pence.nullable(), multiplierPercent: z.number().int().nullable() });
const expenseCategory = z.enum([
  'fuel',
  'vehicleRepairs',
  'vehicleInsurance',
  'vehicleTax',
  'vehicleHire',
  'parkingTolls',
  'travel',
  'phone',
  'office',
  'equipment',
  'clothing',
  'insurance',
  'bankCharges',
  'accountancy',
  'subscriptions',
  'other',
]);

interface KindInfo<K extends RecordKind> {
  /** The content as the server sends it in a pull (crates/domain/src/sync.rs). */
  content: z.ZodObject<{ [F in keyof RecordContents[K]]: z.ZodType<RecordContents[K][F]> }>;
  put: MutationName;
  remove: MutationName;
  table: (db: LocalDb) => RecordTable<K>;
}

export const RECORD_KINDS: { [K in RecordKind]: KindInfo<K> } = {
  entry: {
    content: z.object({
      date: day,
      stops: count,
      extra: pence,
      notes: z.string(),
      total: pence,
      courierId: z.string(),
      rateCardId: z.string().nullable(),
      parcels: count.nullable(),
      collections: count.nullable(),
      failed: count.nullable(),
      startTime: z.string().nullable(),
      finishTime: z.string().nullable(),
      // A server from before shifts sends none: not a separate shift.
      separateShift: z.boolean().default(false),
    }),
    put: 'entry.put',
    remove: 'entry.delete',
    table: (db) => db.entries as unknown as RecordTable<'entry'>,
  },
  invoice: {
    content: z.object({
      periodStart: day,
      periodEnd: day,
      paid: pence,
      stops: count.nullable(),
      reference: z.string(),
      courierId: z.string(),
      parcels: count.nullable(),
      collections: count.nullable(),
      deductions: pence.nullable(),
      status: z.enum(['unchecked', 'matches', 'disputed', 'resolved']),
      note: z.string(),
    }),
    put: 'invoice.put',
    remove: 'invoice.delete',
    table: (db) => db.invoices as unknown as RecordTable<'invoice'>,
  },
  courier: {
    content: z.object({
      name: z.string(),
      colour: z.string(),
      periodKind: z.enum(['weekly', 'fourFourFive', 'monthly']),
      periodAnchor: day,
      arrearsWeeks: count,
    }),
    put: 'courier.put',
    remove: 'courier.delete',
    table: (db) => db.couriers as unknown as RecordTable<'courier'>,
  },
  rateCard: {
    content: z.object({
      courierId: z.string(),
      validFrom: day,
      label: z.string(),
      perStop: z.array(tier).nullable(),
      perParcel: pence.nullable(),
      parcelCapPerStop: count.nullable(),
      perCollection: pence.nullable(),
      perFailed: pence.nullable(),
      dayRate: pence.nullable(),
      hourly: pence.nullable(),
      peaks: z.array(peak),
    }),
    put: 'rateCard.put',
    remove: 'rateCard.delete',
    table: (db) => db.rateCards as unknown as RecordTable<'rateCard'>,
  },
  deduction: {
    content: z.object({
      courierId: z.string(),
      label: z.string(),
      amount: pence,
      repeat: z.enum(['once', 'weekly', 'monthly']),
      from: day,
      to: day.nullable(),
      // Absent from a server or an export older than them: not said, no vehicle.
      purpose: expenseCategory.nullable().default(null),
      vehicleId: z.string().nullable().default(null),
    }),
    put: 'deduction.put',
    remove: 'deduction.delete',
    table: (db) => db.deductions as unknown as RecordTable<'deduction'>,
  },
  expense: {
    content: z.object({
      date: day,
      amount: pence,
      category: expenseCategory,
      note: z.string(),
      courierId: z.string().nullable(),
      vehicleId: z.string().nullable(),
      repeat: z.enum(['once', 'weekly', 'monthly']),
      repeatUntil: day.nullable(),
      receipts: z.array(z.string()),
    }),
    put: 'expense.put',
    remove: 'expense.delete',
    table: (db) => db.expenses as unknown as RecordTable<'expense'>,
  },
  vehicle: {
    content: z.object({
      name: z.string(),
      type: z.enum(['carVan', 'motorcycle', 'bicycle']),
      method: z.enum(['flatRate', 'actualCosts']),
      // Absent from a server or an export older than it (migration 0020): no commute said.
      commuteMiles: count.default(0),
    }),
    put: 'vehicle.put',
    remove: 'vehicle.delete',
    table: (db) => db.vehicles as unknown as RecordTable<'vehicle'>,
  },
  mileage: {
    content: z.object({
      date: day,
      vehicleId: z.string(),
      courierId: z.string().nullable(),
      odometerStart: count.nullable(),
      odometerEnd: count.nullable(),
      businessMiles: count,
      commuteMiles: count,
      note: z.string(),
    }),
    put: 'mileage.put',
    remove: 'mileage.delete',
    table: (db) => db.mileage as unknown as RecordTable<'mileage'>,
  },
};

export const recordKinds = Object.keys(RECORD_KINDS) as RecordKind[];

function isRecordKind(kind: string): kind is RecordKind {
  return Object.hasOwn(RECORD_KINDS, kind);
}

/** The record kind a mutation is about, or null for the profile and settings documents. */
export function recordKindOf(name: MutationName): RecordKind | null {
  const prefix = name.slice(0, name.indexOf('.'));
  return isRecordKind(prefix) ? prefix : null;
}

/** Just the content fields of a record or a wire payload (no ids, timestamps or sync state). */
export function contentOf<K extends RecordKind>(kind: K, source: RecordContents[K]): RecordContents[K] {
  const content = {} as RecordContents[K];
  for (const field of Object.keys(RECORD_KINDS[kind].content.shape) as (keyof RecordContents[K])[]) content[field] = source[field];
  return content;
}

export function tableOf<K extends RecordKind>(db: LocalDb, kind: K): RecordTable<K> {
  return RECORD_KINDS[kind].table(db);
}
