// Our JSON export read back: every record it carries, each checked against the same content
// schema a pull is (sync/records.ts), so what the device stores from a file is what it would
// store from the server. A record that does not fit is listed with its place and why. The
// profile and settings in the file are not imported: they are the account's, not records.
import { z } from '@/lib/zod';
import { RECORD_KINDS, type RecordKind } from '@/sync/records';
import { impossibleDay, parseDay } from './import-cells';
import { IMPORT_ORDER, type Candidate, type ParsedFile, type RowNote } from '@/core/import/import-plan';
import { EXPORT_LISTS, JSON_EXPORT_FORMAT, JSON_EXPORT_VERSION } from './json-export';

// The file's list for each kind and the word for one of its records, in the order the import
// needs (a record after the ones it points at): both derived, so no kind can be left out.
const LISTS = IMPORT_ORDER.map((kind) => ({ kind, ...EXPORT_LISTS[kind] }));

// The days each kind must carry as YYYY-MM-DD (the pull schema takes any string; a file may be hand-edited).
const DAY_FIELDS: Record<RecordKind, readonly string[]> = {
  courier: ['periodAnchor'],
  vehicle: [],
  rateCard: ['validFrom'],
  deduction: ['from'],
  entry: ['date'],
  invoice: ['periodStart', 'periodEnd'],
  expense: ['date'],
  mileage: ['date'],
  statementLine: ['date'],
  statementFormat: [],
  sentUpdate: ['periodStart', 'periodEnd', 'sentOn'],
  fuelFill: ['date'],
  statementQuery: ['madeOn'],
  evidence: [],
};

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const idField = z.object({ id: z.string().min(1) });

function problemText(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

/** What the JSON export holds, and the account it was made in (null in a file from before that was written). */
export type JsonImport = ParsedFile & { accountId: string | null };

/**
 * Whether the file's ids are this account's own, so the import keeps them (and a second import,
 * on any device, is the same records again). A file from before the account was written in it
 * is this account's when it carries the default courier, whose id is the account's.
 */
export function idsAreOurs(file: JsonImport, userId: string): boolean {
  if (file.accountId !== null) return file.accountId === userId;
  return file.candidates.some((candidate) => candidate.kind === 'courier' && candidate.id === userId);
}

/** The file's records, or a reason the whole file cannot be read as our export. */
export function readJsonExport(text: string): JsonImport | { error: string } {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { error: 'This is not a JSON file' };
  }
  if (typeof data !== 'object' || data === null || (data as { format?: unknown }).format !== JSON_EXPORT_FORMAT) {
    return { error: 'This JSON file is not a Delivery Tracker export' };
  }
  const version = (data as { version?: unknown }).version;
  if (typeof version !== 'number' || version > JSON_EXPORT_VERSION) {
    return { error: 'This export was made by a newer version of Delivery Tracker: update the app and try again' };
  }
  const candidates: Candidate[] = [];
  const invalid: RowNote[] = [];
  for (const { kind, list, word } of LISTS) {
    const items = (data as Record<string, unknown>)[list];
    // Lists added after the first version (expenses, vehicles, mileage) are absent from older files.
    if (items === undefined) continue;
    if (!Array.isArray(items)) {
      invalid.push({ place: list, reason: 'Not a list' });
      continue;
    }
    items.forEach((item: unknown, i) => {
      const place = `${word} ${i + 1}`;
      const id = idField.safeParse(item);
      const content = RECORD_KINDS[kind].content.safeParse(item);
      if (!id.success || !content.success) {
        invalid.push({ place, reason: [id, content].flatMap((r) => (r.success ? [] : [problemText(r.error)])).join('; ') });
        return;
      }
      const fields = content.data as Record<string, unknown>;
      const badDays = DAY_FIELDS[kind].filter((field) => !ISO_DAY.test(String(fields[field])));
      if (badDays.length > 0) {
        invalid.push({ place, reason: `${badDays.join(', ')}: not a day (YYYY-MM-DD)` });
        return;
      }
      // Written right but naming no day (2026-11-31): the server would refuse it after the import.
      const noSuchDays = DAY_FIELDS[kind].flatMap((field) => {
        const why = parseDay(String(fields[field])) === null ? impossibleDay(String(fields[field])) : null;
        return why ? [`${field}: ${String(fields[field])} does not exist (${why})`] : [];
      });
      if (noSuchDays.length > 0) {
        invalid.push({ place, reason: noSuchDays.join('; ') });
        return;
      }
      candidates.push({ kind, id: id.data.id, content: content.data, place } as Candidate);
    });
  }
  const accountId = (data as { accountId?: unknown }).accountId;
  return { candidates, invalid, accountId: typeof accountId === 'string' ? accountId : null };
}
