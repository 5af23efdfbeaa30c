// A complete, self-describing copy of the driver's data for a date range: the "take my data
// with me" export. Every field is copied by name, so nothing the device keeps for syncing
// (sync state, the server's copy, the outbox) can slip into the file as new fields appear.
import type { PayTier } from '@/core/pay/pay';
import type {
  CourierContent,
  DeductionContent,
  EntryContent,
  ExpenseContent,
  StatementCheckContent,
  MileageContent,
  RateCardContent,
  Theme,
  VehicleContent,
} from '@/sync/types';
import { exportFileName } from './export-file-name';

export const JSON_EXPORT_FORMAT = 'delivery-tracker-export';
export const JSON_EXPORT_VERSION = 1;

/** A LocalEntry fits; `deleted` is optional so plain records do too. */
export type ExportableEntry = EntryContent & { id: string; createdAt: string; updatedAt: string; deleted?: 0 | 1 };
/** A LocalStatementCheck fits. */
export type ExportableStatementCheck = StatementCheckContent & { id: string; createdAt: string; updatedAt: string; deleted?: 0 | 1 };
/** The LocalCourier, LocalRateCard and LocalDeduction records fit. */
export type Exportable<C> = C & { id: string; createdAt: string; updatedAt: string; deleted?: 0 | 1 };

/** How the driver is paid (a PaySetup fits): exported whole, since a card from before the range still prices days in it. */
export interface ExportablePay {
  couriers: readonly Exportable<CourierContent>[];
  cards: readonly Exportable<RateCardContent>[];
  deductions: readonly Exportable<DeductionContent>[];
}

/** What the export keeps of the profile; a ProfileView (lib/sync-react/use-profile) fits. */
export interface ExportableProfile {
  displayName: string;
  email: string | null;
  bio: string;
  tiers: readonly PayTier[];
}

export interface ExportableSettings {
  theme: Theme;
}

export interface JsonExportInput {
  /** The account the records belong to: an import into the same account keeps their ids. */
  accountId: string;
  profile: ExportableProfile;
  settings: ExportableSettings;
  entries: readonly ExportableEntry[];
  invoices: readonly ExportableStatementCheck[];
  pay: ExportablePay;
  /** Every expense on the device; the export keeps those charged in the range (a repeating one from its start). */
  expenses: readonly Exportable<ExpenseContent>[];
  /** Every vehicle, exported whole like the couriers: an expense or a mileage day in the range names it. */
  vehicles: readonly Exportable<VehicleContent>[];
  /** Every mileage day; the export keeps those in the range. */
  mileage: readonly Exportable<MileageContent>[];
  /** YYYY-MM-DD, inclusive. */
  from: string;
  /** YYYY-MM-DD, inclusive. */
  to: string;
  /** ISO timestamp of the export. */
  exportedAt: string;
}

export interface ExportedEntry extends EntryContent {
  id: string;
  createdAt: string;
  updatedAt: string;
}

export interface ExportedStatementCheck extends StatementCheckContent {
  id: string;
  createdAt: string;
  updatedAt: string;
}

type Exported<C> = C & { id: string; createdAt: string; updatedAt: string };

export interface JsonExport {
  format: typeof JSON_EXPORT_FORMAT;
  version: typeof JSON_EXPORT_VERSION;
  exportedAt: string;
  /** Added after the first files: an older export has none. */
  accountId: string;
  range: { from: string; to: string };
  /** Every amount in the file is integer pence. */
  moneyUnit: 'pence';
  profile: { displayName: string; email: string | null; bio: string; paymentConfig: { tiers: PayTier[] } };
  settings: { theme: Theme };
  couriers: Exported<CourierContent>[];
  rateCards: Exported<RateCardContent>[];
  deductions: Exported<DeductionContent>[];
  entries: ExportedEntry[];
  invoices: ExportedStatementCheck[];
  /** Added after the first files: an older export has none, and the import reads it as empty. */
  expenses: Exported<ExpenseContent>[];
  vehicles: Exported<VehicleContent>[];
  mileage: Exported<MileageContent>[];
}

function exportedEntry(e: ExportableEntry): ExportedEntry {
  return {
    id: e.id,
    date: e.date,
    courierId: e.courierId,
    rateCardId: e.rateCardId,
    stops: e.stops,
    parcels: e.parcels,
    collections: e.collections,
    failed: e.failed,
    startTime: e.startTime,
    finishTime: e.finishTime,
    extra: e.extra,
    notes: e.notes,
    total: e.total,
    separateShift: e.separateShift,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

function exportedStatementCheck(i: ExportableStatementCheck): ExportedStatementCheck {
  return {
    id: i.id,
    periodStart: i.periodStart,
    periodEnd: i.periodEnd,
    paid: i.paid,
    stops: i.stops,
    reference: i.reference,
    courierId: i.courierId,
    parcels: i.parcels,
    collections: i.collections,
    deductions: i.deductions,
    status: i.status,
    note: i.note,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  };
}

function exportedCourier(c: Exportable<CourierContent>): Exported<CourierContent> {
  return {
    id: c.id,
    name: c.name,
    colour: c.colour,
    periodKind: c.periodKind,
    periodAnchor: c.periodAnchor,
    arrearsWeeks: c.arrearsWeeks,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

function exportedCard(c: Exportable<RateCardContent>): Exported<RateCardContent> {
  return {
    id: c.id,
    courierId: c.courierId,
    validFrom: c.validFrom,
    label: c.label,
    perStop: c.perStop ? c.perStop.map(exportedTier) : null,
    perParcel: c.perParcel,
    parcelCapPerStop: c.parcelCapPerStop,
    perCollection: c.perCollection,
    perFailed: c.perFailed,
    dayRate: c.dayRate,
    hourly: c.hourly,
    peaks: c.peaks.map(({ from, to, extraPerStop, multiplierPercent }) => ({ from, to, extraPerStop, multiplierPercent })),
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

function exportedDeduction(d: Exportable<DeductionContent>): Exported<DeductionContent> {
  return {
    id: d.id,
    courierId: d.courierId,
    label: d.label,
    amount: d.amount,
    repeat: d.repeat,
    from: d.from,
    to: d.to,
    purpose: d.purpose,
    vehicleId: d.vehicleId,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

function exportedExpense(e: Exportable<ExpenseContent>): Exported<ExpenseContent> {
  return {
    id: e.id,
    date: e.date,
    amount: e.amount,
    category: e.category,
    note: e.note,
    courierId: e.courierId,
    vehicleId: e.vehicleId,
    repeat: e.repeat,
    repeatUntil: e.repeatUntil,
    receipts: [...e.receipts],
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

function exportedVehicle(v: Exportable<VehicleContent>): Exported<VehicleContent> {
  return { id: v.id, name: v.name, type: v.type, method: v.method, commuteMiles: v.commuteMiles, createdAt: v.createdAt, updatedAt: v.updatedAt };
}

function exportedMileage(m: Exportable<MileageContent>): Exported<MileageContent> {
  return {
    id: m.id,
    date: m.date,
    vehicleId: m.vehicleId,
    courierId: m.courierId,
    odometerStart: m.odometerStart,
    odometerEnd: m.odometerEnd,
    businessMiles: m.businessMiles,
    commuteMiles: m.commuteMiles,
    note: m.note,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
}

/** An expense is in the range when it is charged on a day of it: once on its date, or repeating from its date until its end. */
function expenseInRange(e: ExpenseContent, from: string, to: string): boolean {
  const last = e.repeat === 'once' ? e.date : (e.repeatUntil ?? to);
  return e.date <= to && last >= from;
}

// The last tier has no stopCount; leave the key out rather than write undefined.
function exportedTier({ stopCount, rate }: PayTier): PayTier {
  return stopCount === undefined ? { rate } : { stopCount, rate };
}

/** Ordering for stable files: by day (YYYY-MM-DD sorts as text), then creation, then id. */
function compareBy<T>(...keys: ((item: T) => string)[]) {
  return (a: T, b: T): number => {
    for (const key of keys) {
      const [x, y] = [key(a), key(b)];
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  };
}

export function buildJsonExport({ accountId, profile, settings, entries, invoices, pay, expenses, vehicles, mileage, from, to, exportedAt }: JsonExportInput): JsonExport {
  const live = <T extends { deleted?: 0 | 1 }>(record: T) => record.deleted !== 1;
  return {
    format: JSON_EXPORT_FORMAT,
    version: JSON_EXPORT_VERSION,
    exportedAt,
    accountId,
    range: { from, to },
    moneyUnit: 'pence',
    profile: {
      displayName: profile.displayName,
      email: profile.email,
      bio: profile.bio,
      paymentConfig: { tiers: profile.tiers.map(exportedTier) },
    },
    settings: { theme: settings.theme },
    couriers: pay.couriers
      .filter(live)
      .sort(compareBy((c) => c.createdAt, (c) => c.id))
      .map(exportedCourier),
    rateCards: pay.cards
      .filter(live)
      .sort(compareBy((c) => c.courierId, (c) => c.validFrom, (c) => c.id))
      .map(exportedCard),
    deductions: pay.deductions
      .filter(live)
      .sort(compareBy((d) => d.courierId, (d) => d.from, (d) => d.id))
      .map(exportedDeduction),
    entries: entries
      .filter((e) => live(e) && e.date >= from && e.date <= to)
      .sort(compareBy((e) => e.date, (e) => e.createdAt, (e) => e.id))
      .map(exportedEntry),
    // A statement belongs in the export when any of its days is in the range.
    invoices: invoices
      .filter((i) => live(i) && i.periodStart <= to && i.periodEnd >= from)
      .sort(compareBy((i) => i.periodStart, (i) => i.periodEnd, (i) => i.createdAt, (i) => i.id))
      .map(exportedStatementCheck),
    expenses: expenses
      .filter((e) => live(e) && expenseInRange(e, from, to))
      .sort(compareBy((e) => e.date, (e) => e.createdAt, (e) => e.id))
      .map(exportedExpense),
    vehicles: vehicles
      .filter(live)
      .sort(compareBy((v) => v.createdAt, (v) => v.id))
      .map(exportedVehicle),
    mileage: mileage
      .filter((m) => live(m) && m.date >= from && m.date <= to)
      .sort(compareBy((m) => m.date, (m) => m.createdAt, (m) => m.id))
      .map(exportedMileage),
  };
}

export function jsonFileName(from: string, to: string): string {
  return exportFileName(from, to, 'json');
}
