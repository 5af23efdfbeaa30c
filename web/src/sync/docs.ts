// Profile and settings documents. What a screen shows is the server's copy, then the changes
// the server has acknowledged but no pull has brought back yet, then every unsent change (the
// outbox items for that document, in order). This module keeps that view up to date whenever
// any of the three moves, so an acknowledged change never flickers back to an older value.
import { z } from '../lib/zod';
import type { LocalDb } from './db';
import type { DocKind, LocalDoc, OutboxItem, ProfileData, RecordSyncState, SettingsData } from './types';

/** The documents as the server sends them in a pull (crates/domain/src/sync.rs). */
export const docDataSchemas = {
  profile: z.object({
    displayName: z.string(),
    email: z.string().nullable(),
    bio: z.string(),
    photoURL: z.string().nullable(),
    role: z.enum(['free', 'pro']),
    isAnonymous: z.boolean(),
    paymentConfig: z.object({ tiers: z.array(z.object({ stopCount: z.number().int().optional(), rate: z.number().int() })) }),
    createdAt: z.string(),
    updatedAt: z.string(),
  }) satisfies z.ZodType<ProfileData>,
  // A server from before the tax year sends no taxRegion: that means the UK bands; one from
  // before the quarters election sends no quarters: the standard ones; one from before statement
  // queries sends no queryReminderDays: 14.
  settings: z.object({
    theme: z.enum(['dark', 'light']),
    taxRegion: z.enum(['uk', 'scotland']).default('uk'),
    quarters: z.enum(['standard', 'calendar']).default('standard'),
    queryReminderDays: z.number().int().min(1).max(90).default(14),
    updatedAt: z.string(),
  }) satisfies z.ZodType<SettingsData>,
} satisfies Record<DocKind, z.ZodType>;

function fold(items: OutboxItem[]): Record<string, unknown> {
  return items.reduce<Record<string, unknown>>((patch, item) => ({ ...patch, ...item.args }), {});
}

function stateOf(items: OutboxItem[]): RecordSyncState {
  if (items.some((item) => item.parked)) return 'parked';
  return items.length > 0 ? 'pending' : 'synced';
}

/**
 * Recomputes a document's view. A pulled server copy replaces the acknowledged layer: the
 * server applied those changes before it answered, so any later pull already contains them.
 */
export async function rematerializeDoc(db: LocalDb, kind: DocKind, server?: { data: unknown; version: number }): Promise<void> {
  const current = await db.docs.get(kind);
  const items = (await db.outbox.where('recordId').equals(kind).toArray()).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  const serverData = server ? server.data : (current?.server ?? null);
  const version = server ? server.version : (current?.version ?? 0);
  const acked = server ? {} : (current?.acked ?? {});
  const patch = { ...acked, ...fold(items) };
  const doc = {
    kind,
    server: serverData,
    version,
    acked,
    patch,
    data: serverData ? { ...(serverData as object), ...patch } : null,
    syncState: stateOf(items),
  } as LocalDoc;
  await db.docs.put(doc);
}

/** The server applied this change: keep showing it until a pull brings it back. */
export async function acknowledgeDoc(db: LocalDb, kind: DocKind, args: Record<string, unknown>): Promise<void> {
  const current = await db.docs.get(kind);
  const acked = { ...(current?.acked ?? {}), ...args };
  if (current) await db.docs.put({ ...current, acked } as LocalDoc);
  else await db.docs.put({ kind, server: null, version: 0, acked, patch: acked, data: null, syncState: 'synced' } as LocalDoc);
}

export function isDocRecord(recordId: string): recordId is DocKind {
  return recordId === 'profile' || recordId === 'settings';
}
