import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { LocalDb } from '@/sync/db';
import type { LocalStatementFormat, LocalStatementLine } from '@/sync/types';

/** A statement's lines in its own order: by day, then as the file listed them (the key's row order). */
export function byDayThenKey(a: LocalStatementLine, b: LocalStatementLine): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.lineKey < b.lineKey ? -1 : 1;
}

/** Every live statement line on the device. */
export async function readStatementLines(db: LocalDb): Promise<LocalStatementLine[]> {
  const live = await db.statementLines.where('deleted').equals(0).toArray();
  return live.sort(byDayThenKey);
}

/** Every live statement line, updated as they change; undefined on the first read. */
export function useStatementLines(): LocalStatementLine[] | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(() => readStatementLines(db), [db]);
}

/** Every courier's saved statement format; undefined on the first read. */
export function useStatementFormats(): LocalStatementFormat[] | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(() => db.statementFormats.where('deleted').equals(0).toArray(), [db]);
}
