import { entryFieldsBeforeCouriers, statementCheckFieldsBeforeCouriers } from '@/sync/default-courier';
import 'fake-indexeddb/auto';
import { vi } from 'vitest';
import type { SyncHandle } from '@/sync/coordinator';
import { LocalDb } from '@/sync/db';
import type { SyncStatus } from '@/sync/status';
import type { EntryContent, StatementCheckContent, LocalEntry } from '@/sync/types';

/** A sync handle over a fresh on-device database, with the network side under the test's control. */
export interface TestSyncHandle extends SyncHandle {
  /** Reports a new status, as the engine would. */
  emit(status: SyncStatus): void;
  requestSync: ReturnType<typeof vi.fn<() => void>>;
  syncNow: ReturnType<typeof vi.fn<() => Promise<boolean>>>;
  resume: ReturnType<typeof vi.fn<() => void>>;
  stop: ReturnType<typeof vi.fn<() => void>>;
}

export function createTestSyncHandle(initial: SyncStatus = { state: 'synced', lastSyncAt: null }): TestSyncHandle {
  const db = new LocalDb(`test-${crypto.randomUUID()}`, crypto.randomUUID());
  const listeners = new Set<(status: SyncStatus) => void>();
  let status = initial;
  const requestSync = vi.fn<() => void>();
  // As the coordinator does: every save primitive's write nudges sync.
  db.onOutboxChange(() => requestSync());
  return {
    db,
    get status() {
      return status;
    },
    subscribe(listener) {
      listeners.add(listener);
      listener(status);
      return () => listeners.delete(listener);
    },
    emit(next) {
      status = next;
      for (const listener of listeners) listener(next);
    },
    requestSync,
    syncNow: vi.fn<() => Promise<boolean>>(async () => true),
    resume: vi.fn<() => void>(),
    stop: vi.fn<() => void>(),
  };
}

let counter = 0;

/** The user the fixtures' records belong to: the default courier and first card have this id. */
export const TEST_USER_ID = '0190a6e2-7c1d-7000-8000-00000000beef';

/** Statement check content with the statement fields of a check made before couriers existed. */
export function makeStatementCheckContent(content: Partial<StatementCheckContent> = {}): StatementCheckContent {
  return {
    periodStart: '2025-03-17',
    periodEnd: '2025-03-23',
    paid: 0,
    stops: null,
    reference: '',
    ...statementCheckFieldsBeforeCouriers(TEST_USER_ID),
    ...content,
  };
}

/** An entry as the device stores it; `createdAt` increases with each call unless given. */
export function makeEntry(content: Partial<EntryContent> & Partial<LocalEntry> = {}): LocalEntry {
  counter += 1;
  const createdAt = new Date(Date.UTC(2025, 0, 1, 0, 0, counter)).toISOString();
  return {
    id: `entry-${counter}`,
    date: '2025-03-21',
    stops: 100,
    extra: 0,
    notes: '',
    total: 19_800,
    ...entryFieldsBeforeCouriers(TEST_USER_ID),
    createdAt,
    updatedAt: createdAt,
    deleted: 0,
    syncState: 'synced',
    server: null,
    ...content,
  };
}
