// Sent is sent: the snapshot a quarterly update leaves when the driver marks it as sent (the
// exact file, its SHA-256, the day, the bridging product and the reference), which of a
// quarter's snapshots stands (the one no later one supersedes), and what changed since: the
// figures of the file sent against the figures the records give now for the same period and
// shape. A change after sending is never re-sent for that quarter: it goes into the next
// cumulative update, which is built from the records as they are.
import type { GeneratedSentUpdateContent } from '@/sync/contract.generated';
import type { TaxYearLabel } from '@/core/tax/tax-year';
import type { MtdQuarters } from './quarters';
import { sha256Hex } from './sha256';
import type { ExpensesShape } from './update';

export type SentUpdateSnapshot = GeneratedSentUpdateContent;

export interface SentRecord extends SentUpdateSnapshot {
  id: string;
  createdAt: string;
  deleted?: 0 | 1;
}

export interface MarkAsSent {
  year: TaxYearLabel;
  quarter: number;
  quarters: MtdQuarters;
  periodStart: string;
  periodEnd: string;
  shape: ExpensesShape;
  /** The exact file the driver downloaded and imported. */
  file: string;
  sentOn: string;
  product: string;
  reference: string;
  /** The quarter's snapshot this one replaces, if it was marked before. */
  supersedes: string | null;
}

/** The snapshot to store: the file as it is, with its digest. */
export function snapshotOf(sent: MarkAsSent): SentUpdateSnapshot {
  return {
    taxYear: sent.year,
    quarter: sent.quarter,
    quarters: sent.quarters,
    periodStart: sent.periodStart,
    periodEnd: sent.periodEnd,
    shape: sent.shape,
    file: sent.file,
    sha256: sha256Hex(sent.file),
    sentOn: sent.sentOn,
    product: sent.product.trim(),
    reference: sent.reference.trim(),
    supersedes: sent.supersedes,
  };
}

/** The quarter's standing snapshot: the live one no other supersedes (the latest if two devices marked it at once). */
export function standingSent<T extends SentRecord>(all: readonly T[], year: TaxYearLabel, quarter: number): T | null {
  const own = all.filter((sent) => sent.deleted !== 1 && sent.taxYear === year && sent.quarter === quarter);
  const superseded = new Set(own.map((sent) => sent.supersedes).filter((id): id is string => id !== null));
  const standing = own.filter((sent) => !superseded.has(sent.id)).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  return standing.at(-1) ?? null;
}

/** Every amount of an update file, in pence, by "group.field". */
export function fileFigures(file: string): Map<string, number> {
  const figures = new Map<string, number>();
  const body = JSON.parse(file) as Record<string, unknown>;
  for (const [group, fields] of Object.entries(body)) {
    if (group === 'periodDates' || typeof fields !== 'object' || fields === null) continue;
    for (const [field, pounds] of Object.entries(fields)) if (typeof pounds === 'number') figures.set(`${group}.${field}`, Math.round(pounds * 100));
  }
  return figures;
}

export interface FigureChange {
  /** "group.field" */
  field: string;
  sent: number;
  now: number;
}

/** What the records give now against the file sent, field by field (absent counts as 0). */
export function changesSinceSent(sentFile: string, currentFile: string): FigureChange[] {
  const [sent, now] = [fileFigures(sentFile), fileFigures(currentFile)];
  const fields = [...new Set([...sent.keys(), ...now.keys()])];
  return fields.map((field) => ({ field, sent: sent.get(field) ?? 0, now: now.get(field) ?? 0 })).filter((change) => change.sent !== change.now);
}

/** Whether the file sent is still the file the snapshot says: its digest matches. */
export function intact(sent: SentUpdateSnapshot): boolean {
  return sha256Hex(sent.file) === sent.sha256;
}
