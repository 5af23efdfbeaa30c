import 'fake-indexeddb/auto';
import { vi } from 'vitest';
import type { SyncHandle } from '@/sync/coordinator';
import { LocalDb } from '@/sync/db';
import type { SyncStatus } from '@/sync/status';
import type { EntryContent, LocalEntry } from '@/sync/types';

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
  const db = new LocalDb(`test-${crypto.randomUUID()}`);
  const listeners = new Set<(status: SyncStatus) => void>();
  let status = initial;
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
    requestSync: vi.fn<() => void>(),
    syncNow: vi.fn<() => Promise<boolean>>(async () => true),
    resume: vi.fn<() => void>(),
    stop: vi.fn<() => void>(),
  };
}

let counter = 0;

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
    createdAt,
    updatedAt: createdAt,
    deleted: 0,
    syncState: 'synced',
    server: null,
    ...content,
  };
}
