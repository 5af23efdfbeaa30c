// What a driver does with a statement query: make it from a statement check's differences
// (stored on the device first, synced later), then track it. Each is one call to the generic
// record writes, which nudge sync themselves. The items and the chain are never rewritten here:
// a tracking change puts the stored items back as they are (and the server keeps its own).
import type { Difference } from '@/core/statement-lines/match-statement';
import { makeQuery, type QueryTracking } from '@/core/statement-queries/query';
import { deleteRecord, readThenSave, saveRecord, undoDelete, type RecordWrite } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import { contentOf } from '@/sync/records';
import type { LocalStatementQuery } from '@/sync/types';

/**
 * "Query this": the query made today from the check's differences, recording the evidence kept
 * on the days and lines they name as it is now, and the check marked disputed (its status
 * `disputed`, "Disputed" in the app): both records and their outbox items in ONE transaction,
 * so a crash leaves neither or both. Null when there is nothing to ask, or the check is no
 * longer on the device (then nothing is written).
 */
export async function makeStatementQuery(handle: SyncHandle, statementCheckId: string, differences: readonly Difference[], today: string): Promise<LocalStatementQuery | null> {
  const { db } = handle;
  const stored = await readThenSave(db, { reads: [db.evidence], kinds: ['invoice', 'statementQuery'] }, async (): Promise<RecordWrite[]> => {
    const check = await db.invoices.get(statementCheckId);
    if (!check || check.deleted) return [];
    const evidence = await db.evidence.where('deleted').equals(0).toArray();
    const content = makeQuery(statementCheckId, differences, today, evidence);
    if (!content) return [];
    // The check first: its outbox item goes out before the query that points at it.
    const disputed: RecordWrite[] = check.status === 'disputed' ? [] : [{ kind: 'invoice', content: { ...contentOf('invoice', check), status: 'disputed' }, id: check.id }];
    return [...disputed, { kind: 'statementQuery', content }];
  });
  return (stored.at(-1) as LocalStatementQuery | undefined) ?? null;
}

/** A change to the query's tracking (sent, answered, paid back, closed, note). */
export async function trackStatementQuery(handle: SyncHandle, query: LocalStatementQuery, tracking: Partial<QueryTracking>): Promise<void> {
  const { statementCheckId, madeOn, itemsVersion, items, total, sentOn, answeredOn, paidBackAmount, paidBackOn, paidBackCheckId, closedOn, note } = query;
  await saveRecord(
    handle.db,
    'statementQuery',
    { statementCheckId, madeOn, itemsVersion, items, total, sentOn, answeredOn, paidBackAmount, paidBackOn, paidBackCheckId, closedOn, note, ...tracking },
    query.id,
  );
}

export async function deleteStatementQuery(handle: SyncHandle, id: string): Promise<void> {
  await deleteRecord(handle.db, 'statementQuery', id);
}

export async function restoreStatementQuery(handle: SyncHandle, before: LocalStatementQuery): Promise<void> {
  await undoDelete(handle.db, 'statementQuery', before);
}
