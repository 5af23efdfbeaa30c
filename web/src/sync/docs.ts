// Profile and settings documents. What a screen shows is the server's copy with every unsent
// change (the outbox items for that document, in order) applied on top; this module keeps
// that view up to date whenever either side moves.
import type { LocalDb } from './db';
import type { DocKind, LocalDoc, OutboxItem, RecordSyncState } from './types';

function fold(items: OutboxItem[]): Record<string, unknown> {
  return items.reduce<Record<string, unknown>>((patch, item) => ({ ...patch, ...item.args }), {});
}

function stateOf(items: OutboxItem[]): RecordSyncState {
  if (items.some((item) => item.parked)) return 'parked';
  return items.length > 0 ? 'pending' : 'synced';
}

/** Recomputes a document's view from its server copy and its outbox items. */
export async function rematerializeDoc(db: LocalDb, kind: DocKind, server?: { data: unknown; version: number }): Promise<void> {
  const current = await db.docs.get(kind);
  const items = (await db.outbox.where('recordId').equals(kind).toArray()).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  const serverData = server ? server.data : (current?.server ?? null);
  const version = server ? server.version : (current?.version ?? 0);
  const patch = fold(items);
  const doc = {
    kind,
    server: serverData,
    version,
    patch,
    data: serverData ? { ...(serverData as object), ...patch } : null,
    syncState: stateOf(items),
  } as LocalDoc;
  await db.docs.put(doc);
}

export function isDocRecord(recordId: string): recordId is DocKind {
  return recordId === 'profile' || recordId === 'settings';
}
