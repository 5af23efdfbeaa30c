// The outbox: every change made on this device, in order, until the server has it. This module
// owns an item's state (waiting, parked, gone) and the badge each record shows because of it;
// the commands add items, the engine reports what the server said, the user retries or discards.
import type { LocalDb } from './db';
import { acknowledgeDoc, isDocRecord, rematerializeDoc } from './docs';
import { newId } from './ids';
import { contentOf, RECORD_KINDS, recordKindOf, recordKinds, serverCopyOf, serverVersionOf, tableOf, type RecordContents } from './records';
import type { MutationName, MutationResult, OutboxItem } from './types';

/** After this many failed attempts an item is parked for the user to Retry or Discard. */
export const MAX_ATTEMPTS = 5;

/** A new item, waiting to be pushed. */
export function outboxItem(name: MutationName, recordId: string, args: Record<string, unknown>): OutboxItem {
  return { mutationId: newId(), name, args, recordId, createdAt: Date.now(), attempts: 0, lastError: null, parked: 0 };
}

/** The device's copy of a synced record, whichever kind it is. */
async function findRecord(db: LocalDb, recordId: string) {
  for (const kind of recordKinds) {
    const record = await tableOf(db, kind).get(recordId);
    if (record) return { kind, record };
  }
  return undefined;
}

/** Recomputes a record's badge from its outbox items: parked beats pending beats synced. */
export async function refreshRecordState(db: LocalDb, recordId: string): Promise<void> {
  if (isDocRecord(recordId)) {
    await rematerializeDoc(db, recordId);
    return;
  }
  const found = await findRecord(db, recordId);
  if (!found) return;
  const items = await db.outbox.where('recordId').equals(recordId).toArray();
  const syncState = items.some((i) => i.parked) ? 'parked' : items.length > 0 ? 'pending' : 'synced';
  if (found.record.syncState !== syncState) await tableOf(db, found.kind).update(recordId, { syncState });
}

/** The server's answers to one push: applied items leave, refused ones are parked. */
export async function recordResults(db: LocalDb, batch: OutboxItem[], results: MutationResult[]): Promise<void> {
  const byId = new Map(results.map((r) => [r.id, r]));
  await db.transaction('rw', db.syncTables, async () => {
    for (const item of batch) {
      const result = byId.get(item.mutationId);
      if (!result) continue; // not answered: stays in the outbox and goes again
      if (result.status === 'applied') {
        await db.outbox.delete(item.seq!);
        await rememberServerCopy(db, item);
      } else {
        const lastError = result.message ?? result.code ?? 'Rejected by the server';
        await db.outbox.update(item.seq!, { parked: 1, lastError, fieldErrors: result.fields ?? null });
      }
      await refreshRecordState(db, item.recordId);
    }
  });
}

/** What the server now holds for a record, so a later Discard can restore it. */
async function rememberServerCopy(db: LocalDb, item: OutboxItem): Promise<void> {
  if (isDocRecord(item.recordId)) {
    await acknowledgeDoc(db, item.recordId, item.args);
    return;
  }
  const kind = recordKindOf(item.name);
  if (kind === null) return;
  const table = tableOf(db, kind);
  const record = await table.get(item.recordId);
  if (!record) return;
  if (item.name === RECORD_KINDS[kind].remove) {
    await table.update(record.id, { server: null });
    return;
  }
  const content = contentOf(kind, item.args as unknown as RecordContents[typeof kind]);
  await table.update(record.id, { server: { ...content, version: serverVersionOf(record) ?? 0 } });
}

/** A push that failed as a whole: each item counts one attempt, and is parked at MAX_ATTEMPTS. */
export async function countFailedAttempt(db: LocalDb, batch: OutboxItem[], message: string): Promise<void> {
  await db.transaction('rw', db.syncTables, async () => {
    for (const item of batch) {
      const attempts = item.attempts + 1;
      await db.outbox.update(item.seq!, { attempts, lastError: message, parked: attempts >= MAX_ATTEMPTS ? 1 : 0 });
      await refreshRecordState(db, item.recordId);
    }
  });
}

/** Sets items aside for the user, with the reason the server gave. */
export async function park(db: LocalDb, items: OutboxItem[], message: string): Promise<void> {
  await db.transaction('rw', db.syncTables, async () => {
    for (const item of items) {
      await db.outbox.update(item.seq!, { parked: 1, lastError: message });
      await refreshRecordState(db, item.recordId);
    }
  });
}

/** Gives a parked item another go. */
export async function retryParked(db: LocalDb, seq: number): Promise<void> {
  await db.transaction('rw', db.syncTables, async () => {
    const item = await db.outbox.get(seq);
    if (!item) return;
    await db.outbox.update(seq, { parked: 0, attempts: 0, lastError: null });
    await refreshRecordState(db, item.recordId);
  });
  db.outboxChanged();
}

/**
 * The user gives up a change that cannot be sent. The record goes back to what the server
 * last confirmed, or disappears if the server never had it.
 */
export async function discardParked(db: LocalDb, seq: number): Promise<void> {
  await db.transaction('rw', db.syncTables, async () => {
    const item = await db.outbox.get(seq);
    if (!item) return;
    await db.outbox.delete(seq);
    const kind = recordKindOf(item.name);
    if (kind === null) {
      await refreshRecordState(db, item.recordId);
      return;
    }
    const table = tableOf(db, kind);
    const others = await db.outbox.where('recordId').equals(item.recordId).count();
    const record = await table.get(item.recordId);
    if (!record || others > 0) {
      await refreshRecordState(db, item.recordId);
      return;
    }
    const server = serverCopyOf(kind, record);
    if (server) {
      const { version, ...content } = server;
      // Back to the server's content, which the version alone now stands for.
      await table.put({ ...record, ...content, deleted: 0, syncState: 'synced', server: version });
    } else {
      await table.delete(record.id);
    }
  });
  db.outboxChanged();
}
