// How a pulled change meets the device's copy. Mirrors crates/domain/src/merge.rs: the server
// order is the truth, a delete wins, and a local change not yet pushed is kept (it reaches the
// server later, so it will win there too, unless the record was deleted).
import type { EntryChange, LocalDoc, LocalEntry } from './types';

export type MergeOutcome =
  | { kind: 'write'; entry: LocalEntry }
  | { kind: 'keep-local'; server: LocalEntry['server'] }
  | { kind: 'skip' };

export function mergeRemote(local: LocalEntry | undefined, change: EntryChange, hasPendingLocal: boolean): MergeOutcome {
  if (local?.server && local.server.version >= change.version) return { kind: 'skip' };
  if (change.deleted) {
    const base = local ?? { id: change.id, date: '', stops: 0, extra: 0, notes: '', total: 0, createdAt: '', updatedAt: '' };
    return {
      kind: 'write',
      entry: { ...base, deleted: 1, syncState: hasPendingLocal ? 'pending' : 'synced', server: null },
    };
  }
  const data = change.data;
  if (!data) return { kind: 'skip' };
  const server = { date: data.date, stops: data.stops, extra: data.extra, notes: data.notes, total: data.total, version: change.version };
  if (hasPendingLocal && local) return { kind: 'keep-local', server };
  return {
    kind: 'write',
    entry: {
      id: change.id,
      date: data.date,
      stops: data.stops,
      extra: data.extra,
      notes: data.notes,
      total: data.total,
      createdAt: data.createdAt,
      updatedAt: data.updatedAt,
      deleted: 0,
      syncState: 'synced',
      server,
    },
  };
}

/**
 * A pulled profile or settings record meets the device's document. Unsent local changes are
 * kept on top of the new server copy (they reach the server later and win there too).
 */
export function mergeDoc<D extends LocalDoc>(local: D | undefined, serverData: NonNullable<D['data']>, version: number, kind: D['kind']): D | null {
  if (local && local.version >= version) return null;
  const patch = local?.patch ?? {};
  const pending = Object.keys(patch).length > 0;
  return {
    kind,
    server: serverData,
    data: { ...serverData, ...patch },
    patch,
    version,
    syncState: pending ? (local?.syncState ?? 'pending') : 'synced',
  } as D;
}
