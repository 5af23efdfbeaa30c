// A complete, self-describing copy of the driver's data for a date range: the "take my data
// with me" export. Every kind is copied the same way: its id, its content fields as the
// contract declares them (sync/records.ts contentOf) and its timestamps, so nothing the device
// keeps for syncing (sync state, the server's copy, the outbox) can slip into the file, and a
// new kind or field needs no copier here. What is per kind is which records the range keeps and
// their order (IN_FILE), and the file's list name (EXPORT_LISTS): tables the compiler refuses
// to build without every kind.
import type { PayTier } from '@/core/pay/pay';
import { contentOf, type RecordContents, type RecordKind } from '@/sync/records';
import type {
  CourierContent,
  DeductionContent,
  EntryContent,
  ExpenseContent,
  FuelFillContent,
  StatementCheckContent,
  MileageContent,
  RateCardContent,
  SentUpdateContent,
  StatementQueryContent,
  EvidenceContent,
  StatementFormatContent,
  StatementLineContent,
  TaxRegion,
  Theme,
  VehicleContent,
} from '@/sync/types';
import { IMPORT_ORDER } from '@/core/import/import-plan';
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
  taxRegion: TaxRegion;
}

export interface JsonExportInput {
  /** The account the records belong to: an import into the same account keeps their ids. */
  accountId: string;
  profile: ExportableProfile;
  settings: ExportableSettings;
  entries: readonly ExportableEntry[];
  statementChecks: readonly ExportableStatementCheck[];
  pay: ExportablePay;
  /** Every expense on the device; the export keeps those charged in the range (a repeating one from its start). */
  expenses: readonly Exportable<ExpenseContent>[];
  /** Every vehicle, exported whole like the couriers: an expense or a mileage day in the range names it. */
  vehicles: readonly Exportable<VehicleContent>[];
  /** Every mileage day; the export keeps those in the range. */
  mileage: readonly Exportable<MileageContent>[];
  /** Every statement line; the export keeps the lines of the statement checks it keeps. */
  statementLines: readonly Exportable<StatementLineContent>[];
  /** Every courier's saved statement format, exported whole like the couriers. */
  statementFormats: readonly Exportable<StatementFormatContent>[];
  /** Every sent quarterly update; the export keeps those whose period meets the range. */
  sentUpdates: readonly Exportable<SentUpdateContent>[];
  /** Every fuel fill; the export keeps those in the range. */
  fuelFills: readonly Exportable<FuelFillContent>[];
  statementQueries: readonly Exportable<StatementQueryContent>[];
  /** Every evidence item; the export keeps those on the days, lines and queries it keeps. */
  evidence: readonly Exportable<EvidenceContent>[];
  /** YYYY-MM-DD, inclusive. */
  from: string;
  /** YYYY-MM-DD, inclusive. */
  to: string;
  /** ISO timestamp of the export. */
  exportedAt: string;
}

type Exported<C> = C & { id: string; createdAt: string; updatedAt: string };

/**
 * Each kind's list in the file and the word for one of its records (the import's "Entry 3").
 * The names are the file format: `invoices` holds the statement checks, as in every file
 * already written.
 */
export const EXPORT_LISTS = {
  courier: { list: 'couriers', word: 'Courier' },
  vehicle: { list: 'vehicles', word: 'Vehicle' },
  rateCard: { list: 'rateCards', word: 'Rate card' },
  deduction: { list: 'deductions', word: 'Deduction' },
  entry: { list: 'entries', word: 'Entry' },
  invoice: { list: 'invoices', word: 'Statement check' },
  expense: { list: 'expenses', word: 'Expense' },
  mileage: { list: 'mileage', word: 'Mileage day' },
  statementLine: { list: 'statementLines', word: 'Statement line' },
  statementFormat: { list: 'statementFormats', word: 'Statement format' },
  sentUpdate: { list: 'sentUpdates', word: 'Sent update' },
  fuelFill: { list: 'fuelFills', word: 'Fuel fill' },
  statementQuery: { list: 'statementQueries', word: 'Statement query' },
  evidence: { list: 'evidence', word: 'Evidence item' },
} as const satisfies { [K in RecordKind]: { list: string; word: string } };

/** Every kind's list, typed by the kind's content. */
type ExportedLists = { [K in RecordKind as (typeof EXPORT_LISTS)[K]['list']]: Exported<RecordContents[K]>[] };

export type ExportedEntry = Exported<EntryContent>;
export type ExportedStatementCheck = Exported<StatementCheckContent>;

export type JsonExport = {
  format: typeof JSON_EXPORT_FORMAT;
  version: typeof JSON_EXPORT_VERSION;
  exportedAt: string;
  /** Added after the first files: an older export has none. */
  accountId: string;
  range: { from: string; to: string };
  /** Every amount in the file is integer pence. */
  moneyUnit: 'pence';
  profile: { displayName: string; email: string | null; bio: string; paymentConfig: { tiers: PayTier[] } };
  /** `taxRegion` was added after the first files. */
  settings: { theme: Theme; taxRegion: TaxRegion };
} & ExportedLists;
// Lists added after the first files (expenses, vehicles, mileage, statement lines and formats,
// sent updates, fuel fills) are absent from older ones,
// and the import reads them as empty.

/** Which of a kind's live records a range keeps, and their order in the file (stable files). */
interface InFile<C> {
  /** `kept` answers whether a record of an earlier kind (in import order) is in the file. */
  keeps: (record: C, from: string, to: string, kept: (kind: RecordKind, id: string) => boolean) => boolean;
  order: ((record: Exportable<C>) => string)[];
}

const whole = () => true;
const onADay = (record: { date: string }, from: string, to: string) => record.date >= from && record.date <= to;
const byDay = <C extends { date: string }>(): InFile<C>['order'] => [(r) => r.date, (r) => r.createdAt, (r) => r.id];

const IN_FILE: { [K in RecordKind]: InFile<RecordContents[K]> } = {
  // Exported whole: a card from before the range still prices days in it, and an expense or a
  // mileage day in the range names its vehicle.
  courier: { keeps: whole, order: [(c) => c.createdAt, (c) => c.id] },
  rateCard: { keeps: whole, order: [(c) => c.courierId, (c) => c.validFrom, (c) => c.id] },
  deduction: { keeps: whole, order: [(d) => d.courierId, (d) => d.from, (d) => d.id] },
  vehicle: { keeps: whole, order: [(v) => v.createdAt, (v) => v.id] },
  entry: { keeps: onADay, order: byDay() },
  // A statement belongs in the export when any of its days is in the range.
  invoice: {
    keeps: (i, from, to) => i.periodStart <= to && i.periodEnd >= from,
    order: [(i) => i.periodStart, (i) => i.periodEnd, (i) => i.createdAt, (i) => i.id],
  },
  expense: { keeps: (e, from, to) => expenseInRange(e, from, to), order: byDay() },
  mileage: { keeps: onADay, order: byDay() },
  // A line goes with its statement check, so the file never holds half a statement.
  statementLine: { keeps: (l, _from, _to, kept) => kept('invoice', l.invoiceId), order: [(l) => l.invoiceId, (l) => l.date, (l) => l.lineKey] },
  statementFormat: { keeps: whole, order: [(f) => f.courierId, (f) => f.source, (f) => f.id] },
  sentUpdate: {
    keeps: (u, from, to) => u.periodStart <= to && u.periodEnd >= from,
    order: [(u) => u.taxYear, (u) => u.periodEnd, (u) => u.sentOn, (u) => u.createdAt, (u) => u.id],
  },
  fuelFill: { keeps: onADay, order: byDay() },
  // A query goes with the statement check it is about.
  statementQuery: { keeps: (q, _from, _to, kept) => kept('invoice', q.statementCheckId), order: [(q) => q.madeOn, (q) => q.createdAt, (q) => q.id] },
  // Evidence goes with the day, line or query it is about.
  evidence: {
    keeps: (e, _from, _to, kept) =>
      (e.entryId !== null && kept('entry', e.entryId)) ||
      (e.statementLineId !== null && kept('statementLine', e.statementLineId)) ||
      (e.statementQueryId !== null && kept('statementQuery', e.statementQueryId)),
    order: [(e) => e.recordedAt, (e) => e.id],
  },
};

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

/** One kind's list: the live records the range keeps, in file order, each copied by its contract fields. */
function exportedList<K extends RecordKind>(
  kind: K,
  records: readonly Exportable<RecordContents[K]>[],
  from: string,
  to: string,
  kept: (kind: RecordKind, id: string) => boolean,
): Exported<RecordContents[K]>[] {
  const { keeps, order } = IN_FILE[kind] as InFile<RecordContents[K]>;
  return records
    .filter((record) => record.deleted !== 1 && keeps(record, from, to, kept))
    .sort(compareBy(...order))
    .map((record) => ({ id: record.id, ...contentOf(kind, record), createdAt: record.createdAt, updatedAt: record.updatedAt }) as Exported<RecordContents[K]>);
}

export function buildJsonExport(input: JsonExportInput): JsonExport {
  const { accountId, profile, settings, entries, statementChecks, pay, expenses, vehicles, mileage, statementLines, statementFormats, sentUpdates, fuelFills, statementQueries, evidence, from, to, exportedAt } = input;
  const records: { [K in RecordKind]: readonly Exportable<RecordContents[K]>[] } = {
    courier: pay.couriers,
    vehicle: vehicles,
    rateCard: pay.cards,
    deduction: pay.deductions,
    entry: entries,
    invoice: statementChecks,
    expense: expenses,
    mileage,
    statementLine: statementLines,
    statementFormat: statementFormats,
    sentUpdate: sentUpdates,
    fuelFill: fuelFills,
    statementQuery: statementQueries,
    evidence,
  };
  // Kinds in import order, so a kind that keeps records by their references sees what is kept.
  const keptIds = new Map<RecordKind, Set<string>>();
  const kept = (kind: RecordKind, id: string) => keptIds.get(kind)?.has(id) ?? false;
  const listed = new Map<RecordKind, Exported<unknown>[]>();
  for (const kind of IMPORT_ORDER) {
    const list = exportedList(kind, records[kind], from, to, kept);
    keptIds.set(kind, new Set(list.map((record) => record.id)));
    listed.set(kind, list);
  }
  const lists = Object.fromEntries((Object.keys(EXPORT_LISTS) as RecordKind[]).map((kind) => [EXPORT_LISTS[kind].list, listed.get(kind)])) as ExportedLists;
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
    settings: { theme: settings.theme, taxRegion: settings.taxRegion },
    ...lists,
  };
}

export function jsonFileName(from: string, to: string): string {
  return exportFileName(from, to, 'json');
}
