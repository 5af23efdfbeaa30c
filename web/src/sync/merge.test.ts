import { entryFieldsBeforeCouriers } from './default-courier';
import { describe, expect, it } from 'vitest';
import { mergeRemote } from './merge';
import type { EntryChange, LocalEntry } from './types';

const fields = entryFieldsBeforeCouriers('u1');
const local = (over: Partial<LocalEntry> = {}): LocalEntry => ({
  id: 'e1', date: '2025-03-21', stops: 10, extra: 0, notes: '', total: 1980, ...fields,
  createdAt: 'c', updatedAt: 'u', deleted: 0, syncState: 'synced',
  server: { date: '2025-03-21', stops: 10, extra: 0, notes: '', total: 1980, ...fields, version: 3 }, ...over,
});
const change = (over: Partial<EntryChange> = {}): EntryChange => ({
  kind: 'entry', id: 'e1', version: 4, deleted: false,
  data: { date: '2025-03-21', stops: 12, extra: 0, notes: '', total: 2376, ...fields, createdAt: 'c', updatedAt: 'u2' }, ...over,
});

describe('mergeRemote', () => {
  it.each([
    ['new record', undefined, change(), false, 'write'],
    ['newer server version', local(), change(), false, 'write'],
    ['stale or repeated change', local(), change({ version: 3 }), false, 'skip'],
    ['unsent local edit beats a remote edit', local({ syncState: 'pending' }), change(), true, 'keep-local'],
    ['delete wins even over an unsent edit', local({ syncState: 'pending' }), change({ deleted: true, data: undefined }), true, 'write'],
  ] as const)('%s', (_name, current, incoming, pending, expected) => {
    expect(mergeRemote('entry', current, incoming, pending).kind).toBe(expected);
  });

  it('a tombstone keeps no server copy and marks the record deleted', () => {
    const outcome = mergeRemote('entry', local(), change({ deleted: true, data: undefined }), false);
    expect(outcome).toMatchObject({ kind: 'write', record: { deleted: 1, server: null, syncState: 'synced' } });
  });
});
