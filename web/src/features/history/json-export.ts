// A complete, self-describing copy of the driver's data for a date range: the "take my data
// with me" export. Every kind is copied the same way: its id, its content fields as the
// contract declares them (sync/records.ts contentOf) and its timestamps, so nothing the device
// keeps for syncing (sync state, the server's copy, the outbox) can slip into the file, and a
// new kind or field needs no copier here. The input is every record on the device by kind
// (export-commands.ts reads them), the file's list names and places come from the kinds' names
// and words (EXPORT_LISTS), and which records a range keeps follows the kind's day unless IN_FILE
// says otherwise: a new kind needs nothing here.
import type { PayTier } from '@/core/pay/pay';
import { contentOf, type RecordContents, type RecordKind } from '@/sync/records';
import type { EntryContent, ExpenseContent, StatementCheckContent, TaxRegion, Theme } from '@/sync/types';
import { DAY_FIELDS, KIND_NAMES, WORDS } from '@/sync/contract.generated';
import { IMPORT_ORDER } from '@/core/import/import-plan';
import { exportFileName } from './export-file-name';

export const JSON_EXPORT_FORMAT = 'delivery-tracker-export';
export const JSON_EXPORT_VERSION = 1;

/** A LocalEntry fits; `deleted` is optional so plain records do too. */
export type ExportableEntry = EntryContent & { id: string; createdAt: string; updatedAt: string; deleted?: 0 | 1 };
/** A LocalStatementCheck fits. */
export type ExportableStatementCheck = StatementCheckContent & { id: string; createdAt: string; updatedAt: string; deleted?: 0 | 1 };
/** Any kind's local record fits (a LocalCourier, a LocalFuelFill…). */
export type Exportable<C> = C & { id: string; createdAt: string; updatedAt: string; deleted?: 0 | 1 };

/** Records by kind, tombstones allowed (they are left out); a kind not given has none. */
export type ExportRecords = { readonly [K in RecordKind]?: readonly Exportable<RecordContents[K]>[] };

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
  /**
   * Every record on the device by kind (export-commands.ts readExportRecords): the range keeps
   * what IN_FILE says, couriers, cards and deductions whole, since a card from before the range
   * still prices days in it.
   */
  records: ExportRecords;
  /** YYYY-MM-DD, inclusive. */
  from: string;
  /** YYYY-MM-DD, inclusive. */
  to: string;
  /** ISO timestamp of the export. */
  exportedAt: string;
}

type Exported<C> = C & { id: string; createdAt: string; updatedAt: string };

/**
 * A kind's list in the file: its name made plural (`fuelFill` → `fuelFills`, `statementQuery` →
 * `statementQueries`, `invoice` → `invoices`, which holds the statement checks), except the
 * nouns English does not count: the mileage log's, which was always `mileage`, and `evidence`.
 * The names are the file format, as in every file already written.
 */
type Uncounted = 'mileage' | 'evidence';
type ListName<K extends string> = K extends Uncounted ? K : K extends `${infer Stem}y` ? `${Stem}ies` : `${K}s`;

function listName<K extends RecordKind>(kind: K): ListName<K> {
  const uncounted: readonly string[] = ['mileage', 'evidence'] satisfies Uncounted[];
  return (uncounted.includes(kind) ? kind : kind.endsWith('y') ? `${kind.slice(0, -1)}ies` : `${kind}s`) as ListName<K>;
}

/** Each kind's list in the file and the word for one of its records (the import's "Entry 3"). */
export const EXPORT_LISTS = Object.fromEntries(
  KIND_NAMES.map((kind) => [kind, { list: listName(kind), word: `${WORDS[kind].record[0]!.toUpperCase()}${WORDS[kind].record.slice(1)}` }]),
) as { [K in RecordKind]: { list: ListName<K>; word: string } };

/** Every kind's list, typed by the kind's content. */
type ExportedLists = { [K in RecordKind as ListName<K>]: Exported<RecordContents[K]>[] };

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
// sent updates, fuel fills, queries) are absent from older ones, and the import reads them as empty.

/** Which of a kind's live records a range keeps, and their order in the file (stable files). */
interface InFile<C> {
  /** `kept` answers whether a record of an earlier kind (in import order) is in the file. */
  keeps: (record: C, from: string, to: string, kept: (kind: RecordKind, id: string) => boolean) => boolean;
  order: ((record: Exportable<C>) => string)[];
}

const whole = () => true;
const onADay = (record: { date: string }, from: string, to: string) => record.date >= from && record.date <= to;
const byDay = <C extends { date: string }>(): InFile<C>['order'] => [(r) => r.date, (r) => r.createdAt, (r) => r.id];

/**
 * Where a kind's range is not its day: a kind with a \`date\` keeps the records on a day of the
 * range, by day; one without is exported whole, oldest first (byDefault).
 */
const IN_FILE: { [K in RecordKind]?: InFile<RecordContents[K]> } = {
  // Exported whole: a card from before the range still prices days in it.
  rateCard: { keeps: whole, order: [(c) => c.courierId, (c) => c.validFrom, (c) => c.id] },
  deduction: { keeps: whole, order: [(d) => d.courierId, (d) => d.from, (d) => d.id] },
  // A statement belongs in the export when any of its days is in the range.
  invoice: {
    keeps: (i, from, to) => i.periodStart <= to && i.periodEnd >= from,
    order: [(i) => i.periodStart, (i) => i.periodEnd, (i) => i.createdAt, (i) => i.id],
  },
  expense: { keeps: (e, from, to) => expenseInRange(e, from, to), order: byDay() },
  // A line goes with its statement check, so the file never holds half a statement.
  statementLine: { keeps: (l, _from, _to, kept) => kept('invoice', l.invoiceId), order: [(l) => l.invoiceId, (l) => l.date, (l) => l.lineKey] },
  statementFormat: { keeps: whole, order: [(f) => f.courierId, (f) => f.source, (f) => f.id] },
  sentUpdate: {
    keeps: (u, from, to) => u.periodStart <= to && u.periodEnd >= from,
    order: [(u) => u.taxYear, (u) => u.periodEnd, (u) => u.sentOn, (u) => u.createdAt, (u) => u.id],
  },
  // A query goes with the statement check it is about.
  statementQuery: { keeps: (q, _from, _to, kept) => kept('invoice', q.statementCheckId), order: [(q) => q.madeOn, (q) => q.createdAt, (q) => q.id] },
  // Evidence goes with the day, statement line or query it is about.
  evidence: {
    keeps: (e, _from, _to, kept) =>
      (e.entryId !== null && kept('entry', e.entryId)) ||
      (e.statementLineId !== null && kept('statementLine', e.statementLineId)) ||
      (e.statementQueryId !== null && kept('statementQuery', e.statementQueryId)),
    order: [(e) => e.recordedAt, (e) => e.id],
  },
};

/**
 * A kind IN_FILE does not name: on a day of the range, by day, when its records have a \`date\`
 * (entries, mileage, fuel fills); else whole, oldest first (couriers and vehicles, which a day
 * in the range names).
 */
function byDefault(kind: RecordKind): InFile<{ date: string }> | InFile<unknown> {
  if (DAY_FIELDS[kind].includes('date')) return { keeps: onADay, order: byDay() };
  const oldestFirst: InFile<unknown>['order'] = [(r) => r.createdAt, (r) => r.id];
  return { keeps: whole, order: oldestFirst };
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

/** One kind's list: the live records the range keeps, in file order, each copied by its contract fields. */
function exportedList<K extends RecordKind>(
  kind: K,
  records: readonly Exportable<RecordContents[K]>[],
  from: string,
  to: string,
  kept: (kind: RecordKind, id: string) => boolean,
): Exported<RecordContents[K]>[] {
  const { keeps, order } = (IN_FILE[kind] ?? byDefault(kind)) as InFile<RecordContents[K]>;
  return records
    .filter((record) => record.deleted !== 1 && keeps(record, from, to, kept))
    .sort(compareBy(...order))
    .map((record) => ({ id: record.id, ...contentOf(kind, record), createdAt: record.createdAt, updatedAt: record.updatedAt }) as Exported<RecordContents[K]>);
}

export function buildJsonExport(input: JsonExportInput): JsonExport {
  const { accountId, profile, settings, records, from, to, exportedAt } = input;
  // Kinds in import order, so a kind that keeps records by their references sees what is kept.
  const keptIds = new Map<RecordKind, Set<string>>();
  const kept = (kind: RecordKind, id: string) => keptIds.get(kind)?.has(id) ?? false;
  const listed = new Map<RecordKind, Exported<unknown>[]>();
  for (const kind of IMPORT_ORDER) {
    const list = exportedList(kind, records[kind] ?? [], from, to, kept);
    keptIds.set(kind, new Set(list.map((record) => record.id)));
    listed.set(kind, list);
  }
  const lists = Object.fromEntries(IMPORT_ORDER.map((kind) => [EXPORT_LISTS[kind].list, listed.get(kind)])) as ExportedLists;
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
