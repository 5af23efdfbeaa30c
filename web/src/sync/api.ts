// The sync endpoints, over the app's one fetch core (lib/api), with both answers checked
// against a schema. Failures are classified here so the engine can decide what to do: offline
// and server trouble retry, 401 waits for sign-in, 403 password-change-required waits for a new
// password, a refused request parks.
import { z } from '../lib/zod';
import { isApiError, request } from '../lib/api';
import { apiPaths, syncPullPath } from '../lib/paths';
import { docDataSchemas } from './docs';
import { ASK_ZOD, plainReader } from './plain-reader';
import { RECORD_KINDS, recordKinds } from './records';
import type { Change, MutationResult, OutboxItem, PullPage } from './types';

export type SyncFailure =
  | { kind: 'offline' }
  | { kind: 'unauthenticated' }
  /** The password is temporary: writes wait, untouched, until the user chooses a new one. */
  | { kind: 'password-change' }
  /** `retryAfterMs`: the server asked to come back no sooner (429 with Retry-After). */
  | { kind: 'server'; status: number; retryAfterMs?: number }
  | { kind: 'refused'; status: number; message: string };

/** What a failed sync request means for the engine; null for anything that is not an ApiError. */
export function syncFailureOf(error: unknown): SyncFailure | null {
  if (!isApiError(error)) return null;
  const { status } = error;
  if (error.code === 'network') return { kind: 'offline' };
  if (status === 401) return { kind: 'unauthenticated' };
  // Not "this change is refused": the account may not write yet. Nothing is parked.
  if (status === 403 && error.code === 'password-change-required') return { kind: 'password-change' };
  if (status === 429) {
    // A quota that refills with time (push volume, rate limits): send the same thing later.
    const retryAfterMs = error.retryAfter ? error.retryAfter * 1000 : undefined;
    return { kind: 'server', status, retryAfterMs };
  }
  // 'invalid-response': a captive portal or proxy answered with something that is not our API.
  if (status >= 500 || status === 408 || error.code === 'invalid-response') return { kind: 'server', status };
  return { kind: 'refused', status, message: error.message || `Request refused (${status})` };
}

/** The words an outbox item keeps as its last error (shown with a parked change). */
export function failureText(failure: SyncFailure | null, error: unknown): string {
  if (failure === null) return error instanceof Error ? error.message : String(error);
  return failure.kind === 'refused' ? failure.message : `sync ${failure.kind}`;
}

export interface SyncApi {
  push(clientId: string, items: OutboxItem[]): Promise<MutationResult[]>;
  pull(cursor: number, limit: number): Promise<PullPage>;
}

const pushReplySchema = z.object({
  results: z.array(
    z.object({
      id: z.string(),
      status: z.enum(['applied', 'rejected']),
      code: z.string().optional(),
      message: z.string().optional(),
      fields: z.record(z.string(), z.array(z.string())).optional(),
    }),
  ),
});

const stamps = { createdAt: z.string(), updatedAt: z.string() };

function changeOf<D extends z.ZodType>(kind: string, data: D) {
  return z.object({ kind: z.literal(kind), id: z.string(), version: z.number().int(), deleted: z.boolean(), data: data.optional() });
}

/** A change's schema, and its plain reader (plain-reader.ts) when it has one. */
interface ChangeCheck {
  schema: z.ZodType;
  read: ((value: unknown) => unknown) | null;
}

const checkOf = (schema: z.ZodType): ChangeCheck => ({ schema, read: plainReader(schema) });

/** How to make each kind's check this version knows, by name: the synced records, then the profile and settings. */
const changeSchemas = new Map<string, () => z.ZodType>([
  ...recordKinds.map((kind) => [kind, () => changeOf(kind, RECORD_KINDS[kind].content.extend(stamps))] as const),
  ...Object.entries(docDataSchemas).map(([kind, data]) => [kind, () => changeOf(kind, data)] as const),
]);

/** Every kind this version knows. */
export const knownKinds: readonly string[] = [...changeSchemas.keys()];

const changeChecks = new Map<string, ChangeCheck>();

/**
 * A kind's check, made the first time a change of that kind is read (its zod schema and plain
 * reader took tens of milliseconds of every start on a slow phone, most of them never needed:
 * issue 30); undefined for a kind this version does not know.
 */
export function changeCheck(kind: string): ChangeCheck | undefined {
  let check = changeChecks.get(kind);
  const schema = check ? undefined : changeSchemas.get(kind);
  if (schema) {
    check = checkOf(schema());
    changeChecks.set(kind, check);
  }
  return check;
}

/** What every change is, whatever its kind. */
const anyChange = z.looseObject({ kind: z.string() });

/**
 * A pulled change as its kind's schema reads it: the plain reader first (a first sync reads
 * thousands), zod for anything the reader leaves to it. `undefined`: a kind this version does not know.
 */
export function readChange(item: unknown): { success: true; data: Change } | { success: false; issues: readonly z.core.$ZodIssue[] } | undefined {
  const kind = typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as { kind?: unknown }).kind : undefined;
  if (typeof kind !== 'string') {
    const parsed = anyChange.safeParse(item);
    return parsed.success ? undefined : { success: false, issues: parsed.error.issues };
  }
  const check = changeCheck(kind);
  if (!check) return undefined;
  const read = check.read?.(item) ?? ASK_ZOD;
  if (read !== ASK_ZOD) return { success: true, data: read as Change };
  const parsed = check.schema.safeParse(item);
  return parsed.success ? { success: true, data: parsed.data as Change } : { success: false, issues: parsed.error.issues };
}

/**
 * A pull page. A kind this version does not know yet is left out (a newer app will pull it);
 * a known kind that does not match its schema fails the page, which is retried like any
 * other server trouble rather than stored half-understood.
 */
export const pullPageSchema = z.object({
  changes: z.array(z.unknown()).transform((items, context) => {
    const known: Change[] = [];
    items.forEach((item, index) => {
      const read = readChange(item);
      if (!read) return;
      if (read.success) known.push(read.data);
      else for (const issue of read.issues) context.addIssue({ code: 'custom', message: issue.message, path: [index, ...issue.path] });
    });
    return known;
  }),
  cursor: z.number().int(),
  hasMore: z.boolean(),
});

export function httpSyncApi(fetchImpl?: typeof fetch): SyncApi {
  return {
    async push(clientId, items) {
      const body = { clientId, mutations: items.map((i) => ({ id: i.mutationId, name: i.name, args: i.args })) };
      const reply = await request(apiPaths.syncPush, { method: 'POST', body, schema: pushReplySchema, fetchImpl });
      return reply.results;
    },
    pull(cursor, limit) {
      return request(syncPullPath(cursor, limit), { schema: pullPageSchema, fetchImpl });
    },
  };
}
