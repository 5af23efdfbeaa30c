// What a driver does with a statement's lines: import a file through the courier's format (the
// format saved with the lines, in one transaction: all of it or nothing), type a line, delete
// one. Each goes through sync/commands.ts, which stores the outbox item with the record and
// nudges sync, so all of it works offline.
import { planLineImport, type LineImport } from './import-plan';
import { lineId, typedKey } from './line-identity';
import type { ReadRow } from '@/core/statement-lines/read-lines';
import { deleteRecord, saveRecords, undoDelete, type RecordWrite } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import type { LocalDb } from '@/sync/db';
import { nameId, newId } from '@/sync/ids';
import { contentOf } from '@/sync/records';
import type { LocalStatementLine, StatementFormatContent, StatementLineContent } from '@/sync/types';

/** One format per courier and source, the same id on every device: two devices mapping offline keep one. */
export function formatId(courierId: string, source: StatementFormatContent['source']): Promise<string> {
  return nameId(courierId, `statement-format:${source}`);
}

/** The ids of every line of the check on the device, deleted ones too (a re-import never brings one back). */
async function lineIdsOf(db: LocalDb, invoiceId: string): Promise<Set<string>> {
  return new Set(await db.statementLines.where('invoiceId').equals(invoiceId).primaryKeys());
}

/**
 * Adds the rows not already on the device as lines of `check`, and saves `format` as the
 * courier's (when it changed), together. Returns what was added and what was there already.
 */
export async function importStatementLines(
  handle: SyncHandle,
  check: { id: string; courierId: string },
  rows: readonly ReadRow[],
  format: StatementFormatContent,
): Promise<LineImport> {
  const { db } = handle;
  const plan = await planLineImport(check, rows, await lineIdsOf(db, check.id), format.source);
  const id = await formatId(format.courierId, format.source);
  const saved = await db.statementFormats.get(id);
  const writes: RecordWrite[] = [];
  if (!saved || saved.deleted === 1 || JSON.stringify(contentOf('statementFormat', saved)) !== JSON.stringify(contentOf('statementFormat', format))) writes.push({ kind: 'statementFormat', content: format, id });
  for (const line of plan.lines) writes.push({ kind: 'statementLine', content: line.content, id: line.id });
  if (writes.length > 0) await saveRecords(db, writes);
  return plan;
}

/** A line the driver typed from a paper statement. */
export async function saveTypedLine(handle: SyncHandle, check: { id: string; courierId: string }, line: Omit<StatementLineContent, 'invoiceId' | 'courierId' | 'lineKey'>): Promise<string> {
  const key = typedKey(newId());
  const id = await lineId(check.id, key);
  await saveRecords(handle.db, [{ kind: 'statementLine', content: { ...line, invoiceId: check.id, courierId: check.courierId, lineKey: key }, id }]);
  return id;
}

export async function deleteStatementLine(handle: SyncHandle, id: string): Promise<void> {
  await deleteRecord(handle.db, 'statementLine', id);
}

export async function restoreStatementLine(handle: SyncHandle, before: LocalStatementLine): Promise<void> {
  await undoDelete(handle.db, 'statementLine', before);
}
