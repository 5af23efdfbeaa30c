import type { LocalDb } from '@/sync/db';
import { recordResults } from '@/sync/outbox';
import type { RefusedFields } from '@/sync/types';

/**
 * The server refuses the latest change of record `recordId` as a push would: its outbox item
 * is parked with the problems named by field (`fields`, wire names), through the real outbox.
 */
export async function refuseLatestChange(db: LocalDb, recordId: string, fields: RefusedFields): Promise<void> {
  const item = (await db.outbox.where('recordId').equals(recordId).sortBy('seq')).at(-1);
  if (!item) throw new Error(`no outbox item for ${recordId}`);
  const message = Object.values(fields).flat().join('; ');
  await recordResults(db, [item], [{ id: item.mutationId, status: 'rejected', code: 'validation', message, fields }]);
}
