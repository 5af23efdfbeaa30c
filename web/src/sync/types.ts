// Shapes stored on the device and sent over the wire. Money is integer pence everywhere.

export interface EntryContent {
  date: string; // YYYY-MM-DD
  stops: number;
  extra: number; // pence
  notes: string;
  total: number; // pence, fixed when the entry is saved
}

/** What the server last confirmed for a record: restored when a change is discarded. */
export interface ServerCopy extends EntryContent {
  version: number;
}

export type RecordSyncState = 'synced' | 'pending' | 'parked';

export interface LocalEntry extends EntryContent {
  id: string;
  createdAt: string;
  updatedAt: string;
  /** 1 for a tombstone (numbers index in IndexedDB; booleans do not). */
  deleted: 0 | 1;
  syncState: RecordSyncState;
  server: ServerCopy | null;
}

export type MutationName = 'entry.put' | 'entry.delete';

export interface OutboxItem {
  seq?: number; // auto-increment: push order
  mutationId: string;
  name: MutationName;
  args: Record<string, unknown>;
  recordId: string;
  createdAt: number;
  attempts: number;
  lastError: string | null;
  /** 1 when parked: shown to the user with Retry and Discard, skipped by the engine. */
  parked: 0 | 1;
}

export interface MutationResult {
  id: string;
  status: 'applied' | 'rejected';
  code?: string;
  message?: string;
}

export interface Change {
  kind: 'entry';
  id: string;
  version: number;
  deleted: boolean;
  data?: EntryContent & { createdAt: string; updatedAt: string };
}

export interface PullPage {
  changes: Change[];
  cursor: number;
  hasMore: boolean;
}
