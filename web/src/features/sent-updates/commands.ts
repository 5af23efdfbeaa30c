// The one write a sent update has: marking an update as sent stores its snapshot (a new record,
// synced; the server refuses any later edit or delete). Re-marking a quarter supersedes.
import { snapshotOf, type MarkAsSent } from '@/core/mtd/sent';
import { saveRecord } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';

export async function markAsSent(handle: SyncHandle, sent: MarkAsSent): Promise<void> {
  await saveRecord(handle.db, 'sentUpdate', snapshotOf(sent));
}
