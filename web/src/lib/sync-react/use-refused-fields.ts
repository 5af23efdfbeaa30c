import { useLiveQuery } from 'dexie-react-hooks';
import type { RefusedFields } from '@/sync/types';
import { useSyncHandle } from './use-sync';

/**
 * The problems the server named, field by field, in the latest refused (parked) change of the
 * record `recordId`: a form editing that record shows them beside its fields. Undefined for a
 * new record, or when no parked change of it names fields.
 */
export function useRefusedFields(recordId: string | undefined): RefusedFields | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(async () => {
    if (recordId === undefined) return undefined;
    const items = await db.outbox.where('recordId').equals(recordId).sortBy('seq');
    return items.filter((item) => item.parked === 1 && item.fieldErrors).at(-1)?.fieldErrors ?? undefined;
  }, [db, recordId]);
}
