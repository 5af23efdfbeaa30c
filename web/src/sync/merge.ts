// How a pulled change meets the device's copy. Mirrors crates/domain/src/merge.rs: the server
// order is the truth, a delete wins, and a local change not yet pushed is kept (it reaches the
// server later, so it will win there too, unless the record was deleted).
import { contentOf, serverVersionOf, type RecordContents, type RecordKind } from './records';
import type { LocalRecord, ServerCopyOf } from './types';

export type MergeOutcome<C> =
  | { kind: 'write'; record: LocalRecord<C> }
  | { kind: 'keep-local'; server: ServerCopyOf<C> }
  | { kind: 'skip' };

/** A pulled change to a synced record (an entry or a statement check). */
export interface RecordChange<C> {
  id: string;
  version: number;
  deleted: boolean;
  data?: C & { createdAt: string; updatedAt: string };
}

export function mergeRemote<K extends RecordKind>(
  recordKind: K,
  local: LocalRecord<RecordContents[K]> | undefined,
  change: RecordChange<RecordContents[K]>,
  hasPendingLocal: boolean,
): MergeOutcome<RecordContents[K]> {
  const known = local ? serverVersionOf(local) : null;
  if (known !== null && known >= change.version) return { kind: 'skip' };
  if (change.deleted) {
    // A tombstone for a record this device never had keeps no content: it only has to stop
    // a late local edit from bringing the record back.
    const base = local ?? ({ id: change.id, createdAt: '', updatedAt: '' } as LocalRecord<RecordContents[K]>);
    return {
      kind: 'write',
      record: { ...base, deleted: 1, syncState: hasPendingLocal ? 'pending' : 'synced', server: null },
    };
  }
  const data = change.data;
  if (!data) return { kind: 'skip' };
  const content = contentOf(recordKind, data);
  // The device's content differs from this copy until its own change reaches the server.
  if (hasPendingLocal && local) return { kind: 'keep-local', server: { ...content, version: change.version } };
  return {
    kind: 'write',
    record: {
      ...content,
      id: change.id,
      createdAt: data.createdAt,
      updatedAt: data.updatedAt,
      deleted: 0,
      syncState: 'synced',
      // The server's copy is this content: its version stands for it (LocalRecord's `server`).
      server: change.version,
    },
  };
}
