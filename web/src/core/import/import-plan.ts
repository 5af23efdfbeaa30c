// What an import will write, decided before anything is written: each record read from the
// file is checked against the device's records and the file's earlier records, and becomes a
// write, a duplicate (with why) or an invalid row (with why). Pure: the screen reads the
// device's records, shows this plan as the preview, and hands `writes` to saveRecords in one
// transaction when the driver confirms.
import type { RecordWrite } from '@/sync/commands';
import { KIND_NAMES, REFERENCES } from '@/sync/contract.generated';
import { contentOf, type RecordContents, type RecordKind } from '@/sync/records';

/** One record read from a file; `id` is the file's own (our JSON) or null (a CSV row). */
export type Candidate = { [K in RecordKind]: { kind: K; id: string | null; content: RecordContents[K]; place: string } }[RecordKind];

/** A row that is not written, with where it is in the file ("Row 7", "Entry 3") and why. */
export interface RowNote {
  place: string;
  reason: string;
}

/** What a reader makes of a file: the records it found and the rows it could not read. */
export interface ParsedFile {
  candidates: Candidate[];
  invalid: RowNote[];
}

/** A record already on the device, tombstones included (a tombstoned id cannot be written again). */
type Stored<K extends RecordKind> = RecordContents[K] & { id: string; deleted: 0 | 1 };
export type DeviceRecords = { [K in RecordKind]: readonly Stored<K>[] };

export interface ImportPlan {
  /** In push order: a record after the records it points at. */
  writes: RecordWrite[];
  added: Record<RecordKind, number>;
  duplicates: RowNote[];
  invalid: RowNote[];
}

/**
 * Records that others point at come first, so every reference is known when it is checked: the
 * kinds by how deep their references go (the server's, from the contract), then in the
 * server's registry order.
 */
export const IMPORT_ORDER: readonly RecordKind[] = importOrder();

function importOrder(): RecordKind[] {
  const depth = new Map<RecordKind, number>();
  const depthOf = (kind: RecordKind, seen: readonly RecordKind[]): number => {
    if (seen.includes(kind)) throw new Error(`record kinds point at each other in a loop: ${[...seen, kind].join(' → ')}`);
    const known = depth.get(kind);
    if (known !== undefined) return known;
    const own = Math.max(-1, ...REFERENCES[kind].filter((ref) => ref.kind !== kind).map((ref) => depthOf(ref.kind, [...seen, kind]))) + 1;
    depth.set(kind, own);
    return own;
  };
  return [...KIND_NAMES].sort((a, b) => depthOf(a, []) - depthOf(b, []) || KIND_NAMES.indexOf(a) - KIND_NAMES.indexOf(b));
}

export const KIND_WORDS: Record<RecordKind, { one: string; many: string }> = {
  courier: { one: 'courier', many: 'couriers' },
  vehicle: { one: 'vehicle', many: 'vehicles' },
  rateCard: { one: 'rate card', many: 'rate cards' },
  deduction: { one: 'deduction', many: 'deductions' },
  entry: { one: 'day', many: 'days' },
  invoice: { one: 'statement check', many: 'statement checks' },
  expense: { one: 'expense', many: 'expenses' },
  mileage: { one: 'mileage day', many: 'mileage days' },
  statementLine: { one: 'statement line', many: 'statement lines' },
  statementFormat: { one: 'statement format', many: 'statement formats' },
  sentUpdate: { one: 'sent update', many: 'sent updates' },
  fuelFill: { one: 'fuel fill', many: 'fuel fills' },
  statementQuery: { one: 'statement query', many: 'statement queries' },
  evidence: { one: 'evidence item', many: 'evidence items' },
};

/** Content as text with keys sorted at every level, so two equal records give the same key. */
export function contentKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(contentKey).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${contentKey(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const dayKey = (content: { courierId: string; date: string }) => `${content.courierId}|${content.date}`;

function emptyCounts(): Record<RecordKind, number> {
  return Object.fromEntries(KIND_NAMES.map((kind) => [kind, 0])) as Record<RecordKind, number>;
}

/**
 * Decides every record of the file. A duplicate is a day for the same courier and date (unless
 * the file marks it a separate shift), or for other kinds a record with the same id or equal content, already on the device or earlier
 * in the file. A file id that matches a record on the device maps the file's references to it
 * (an exported default courier from another account is the same as this one's). An id that
 * is a tombstone here gets a new id: the server keeps a deleted id deleted. Without `keepIds`
 * (a file from another account, whose ids the server would refuse as not ours) every record
 * gets a new id, and the file's ids only link its records to each other. A new id is the
 * candidate's entry in `derivedIds` (import-ids.ts: the same on every device) when that id is
 * free here, else `newId()`.
 */
export function planImport(
  file: ParsedFile,
  device: DeviceRecords,
  newId: () => string,
  { keepIds = true, derivedIds = new Map() }: { keepIds?: boolean; derivedIds?: ReadonlyMap<Candidate, string> } = {},
): ImportPlan {
  const plan: ImportPlan = { writes: [], added: emptyCounts(), duplicates: [], invalid: [...file.invalid] };
  const mapped = new Map<string, string>(); // `${kind}:${file id}` → id on the device or in the plan
  const liveIds = new Map<RecordKind, Set<string>>();
  const contents = new Map<RecordKind, Map<string, { id: string; fromFile: boolean }>>();
  const days = new Map<string, boolean>(); // courier|date → from the file
  // `${kind}:${id}` of every record on the device, tombstones included, and each the plan writes.
  const usedIds = new Set<string>();

  for (const kind of IMPORT_ORDER) {
    const live = new Set<string>();
    const byContent = new Map<string, { id: string; fromFile: boolean }>();
    for (const record of device[kind]) {
      usedIds.add(`${kind}:${record.id}`);
      if (record.deleted === 1) continue;
      live.add(record.id);
      byContent.set(contentKey(contentOf(kind, record)), { id: record.id, fromFile: false });
      if (kind === 'entry') days.set(dayKey(record as Stored<'entry'>), false);
    }
    liveIds.set(kind, live);
    contents.set(kind, byContent);
  }

  const where = (fromFile: boolean) => (fromFile ? 'earlier in the file' : 'already on this device');

  for (const kind of IMPORT_ORDER) {
    for (const candidate of file.candidates) {
      if (candidate.kind !== kind) continue;
      const content: Record<string, unknown> = { ...candidate.content };
      const missing = REFERENCES[kind].find((ref) => {
        const value = content[ref.field];
        if (typeof value !== 'string') return false;
        const target = mapped.get(`${ref.kind}:${value}`) ?? value;
        content[ref.field] = target;
        return !liveIds.get(ref.kind)?.has(target);
      });
      if (missing) {
        plan.invalid.push({ place: candidate.place, reason: `Its ${KIND_WORDS[missing.kind].one} is neither in the file nor on this device` });
        continue;
      }
      // Receipt photos are not in the file; another account's photo ids would name nothing of this one's.
      if (!keepIds && kind === 'expense') content.receipts = [];
      const live = liveIds.get(kind) as Set<string>;
      if (candidate.id !== null && live.has(candidate.id)) {
        mapped.set(`${kind}:${candidate.id}`, candidate.id);
        plan.duplicates.push({ place: candidate.place, reason: `The same ${KIND_WORDS[kind].one} (same id) is ${where(false)}` });
        continue;
      }
      const key = contentKey(content);
      const equal = contents.get(kind)?.get(key);
      if (equal) {
        if (candidate.id !== null) mapped.set(`${kind}:${candidate.id}`, equal.id);
        plan.duplicates.push({ place: candidate.place, reason: `An equal ${KIND_WORDS[kind].one} is ${where(equal.fromFile)}` });
        continue;
      }
      // A day the file itself marks as a separate shift is one (our exports say so); any other
      // second day for a courier and date is a duplicate, as the entry form would ask.
      if (kind === 'entry' && !(content as unknown as RecordContents['entry']).separateShift) {
        const day = dayKey(content as unknown as RecordContents['entry']);
        const seen = days.get(day);
        if (seen !== undefined) {
          plan.duplicates.push({ place: candidate.place, reason: `A day for this courier on this date is ${where(seen)}` });
          continue;
        }
        days.set(day, true);
      }
      // Not a tombstone (the server keeps a deleted id deleted), nor taken by another record.
      const free = (id: string | null | undefined): id is string => typeof id === 'string' && !usedIds.has(`${kind}:${id}`);
      const derived = derivedIds.get(candidate);
      const id = keepIds && free(candidate.id) ? candidate.id : free(derived) ? derived : newId();
      usedIds.add(`${kind}:${id}`);
      if (candidate.id !== null) mapped.set(`${kind}:${candidate.id}`, id);
      live.add(id);
      contents.get(kind)?.set(key, { id, fromFile: true });
      plan.writes.push({ kind, content, id } as unknown as RecordWrite);
      plan.added[kind] += 1;
    }
  }
  return plan;
}

function plural(count: number, kind: RecordKind): string {
  return `${count} ${count === 1 ? KIND_WORDS[kind].one : KIND_WORDS[kind].many}`;
}

/** "12 days, 1 courier and 2 vehicles", or null when there is nothing. */
export function countsText(added: Record<RecordKind, number>): string | null {
  // In the words' order (couriers and vehicles first, as a driver reads them), not push order.
  const parts = (Object.keys(KIND_WORDS) as RecordKind[]).filter((kind) => added[kind] > 0).map((kind) => plural(added[kind], kind));
  if (parts.length === 0) return null;
  return parts.length === 1 ? (parts[0] as string) : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) as string}`;
}

export function totalAdded(added: Record<RecordKind, number>): number {
  return Object.values(added).reduce((sum, n) => sum + n, 0);
}
