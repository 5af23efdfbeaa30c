// Receipt photos: files, not records. A photo is kept on the device in the same transaction as
// the record that names it (an expense lists its receipts, an evidence item names its one photo),
// so a record never names a photo the device lacks; it is shown from there at once, and uploaded from a queue when there is a network: one at a time, by its own
// id, so a resent upload is a no-op on the server (PUT /api/v1/receipts/{id} is idempotent).
// Only the server's acknowledgement (or the driver removing the photo) ends its wait.
import { z } from '../lib/zod';
import { ApiError, isApiError, parseErrorResponse } from '../lib/api';
import { receiptPath } from '../lib/paths';
import { saveRecord } from './commands';
import type { LocalDb } from './db';
import type { ExpenseContent, LocalExpense, LocalRecord, ReceiptPhoto } from './types';
import { serverCopyOf, type RecordContents, type RecordKind } from './records';
import { BOUNDS } from './contract.generated';

/** The contract's bound: an expense lists at most this many photos. */
export const MAX_RECEIPTS = BOUNDS.expense.maxReceipts;

/** The server's side of receipts (crates/server receipts routes), so tests can stand in for it. */
export interface ReceiptApi {
  /** Stores the photo under `id`; resolves once the server has it (200 or 201), else throws ApiError. */
  upload(id: string, blob: Blob): Promise<void>;
  /** The stored photo's bytes; throws ApiError (404 while it is not uploaded yet). */
  download(id: string): Promise<Blob>;
}

const uploadReplySchema = z.object({ id: z.string(), bytes: z.number(), createdAt: z.string() });

/** The receipts routes over fetch (same-origin: the session cookie rides along). */
export function httpReceiptApi(fetchImpl: typeof fetch = (input, init) => fetch(input, init)): ReceiptApi {
  async function send(path: string, init: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await fetchImpl(path, { credentials: 'same-origin', ...init });
    } catch (cause) {
      throw new ApiError({ status: 0, code: 'network', cause });
    }
    if (!response.ok) throw await parseErrorResponse(response);
    return response;
  }
  return {
    async upload(id, blob) {
      const body = new FormData();
      body.append('file', blob, 'receipt');
      const response = await send(receiptPath(id), { method: 'PUT', body, headers: { Accept: 'application/json' } });
      // Only our server's answer about this very photo counts: a captive portal's "200" page
      // must not mark a photo uploaded that the server never saw.
      let reply: unknown;
      try {
        reply = await response.json();
      } catch (cause) {
        throw new ApiError({ status: response.status, code: 'invalid-response', cause });
      }
      const parsed = uploadReplySchema.safeParse(reply);
      if (!parsed.success || parsed.data.id !== id) throw new ApiError({ status: response.status, code: 'invalid-response' });
    },
    async download(id) {
      try {
        // The server answers with the photo's version as ETag and `no-cache`: the browser's
        // copy is checked each time (304 while unchanged), so a photo deleted and added again
        // under its id is never shown stale.
        const response = await send(receiptPath(id), { method: 'GET' });
        return response.blob();
      } catch (error) {
        if (!isApiError(error) || error.code !== 'network') throw error;
        // Offline: the copy this browser cached last time it was online, however old.
        const cached = await fetchImpl(receiptPath(id), { credentials: 'same-origin', cache: 'only-if-cached', mode: 'same-origin' }).catch(() => null);
        if (cached?.ok) return cached.blob();
        throw error;
      }
    },
  };
}

/** What a failed upload means for the queue. */
export type UploadFailure =
  /** No network, sign-in expired, or "not now": stop this run; nothing changes on the photo. */
  | { kind: 'stop'; signedOut: boolean }
  /** Server trouble with this photo: try the others, this one again on the next run. */
  | { kind: 'later' }
  /** The server will never take this photo: shown with its reason, Try again and Remove photo. */
  | { kind: 'refused'; message: string };

export function uploadFailureOf(error: unknown): UploadFailure {
  if (!isApiError(error) || error.code === 'network') return { kind: 'stop', signedOut: false };
  const { status } = error;
  if (status === 401) return { kind: 'stop', signedOut: true };
  if (status === 408 || status === 429) return { kind: 'stop', signedOut: false };
  if (status >= 500 || error.code === 'invalid-response') return { kind: 'later' };
  return { kind: 'refused', message: error.message || `The server refused this photo (${status})` };
}

/** Waiting: not acknowledged by the server and not refused by it. */
export function isWaiting(photo: Pick<ReceiptPhoto, 'uploadedAt' | 'error'>): boolean {
  return photo.uploadedAt === null && photo.error === null;
}

/** How many photos wait to upload and how many the server refused (the reminders and the badge). */
export async function receiptCounts(db: LocalDb): Promise<{ waiting: number; failed: number }> {
  let waiting = 0;
  let failed = 0;
  await db.receiptPhotos.each((photo) => {
    if (isWaiting(photo)) waiting += 1;
    else if (photo.uploadedAt === null) failed += 1;
  });
  return { waiting, failed };
}

/** A photo just taken or picked, downscaled, not stored yet. */
export interface NewReceipt {
  id: string;
  blob: Blob;
}

/**
 * Saves an expense with its outbox item, the photos it gained and the removal of the ones the
 * driver took off it, in ONE transaction: an expense never lists a photo the device lacks, and a
 * photo is never kept for an expense that was not saved. Removing a photo is the driver's own
 * discard, so its local copy goes (the server's copy, if any, is swept once no expense lists it).
 */
export async function saveExpenseWithReceipts(
  db: LocalDb,
  content: ExpenseContent,
  id: string | undefined,
  added: readonly NewReceipt[],
  removed: readonly string[],
  now: number = Date.now(),
): Promise<LocalExpense> {
  return saveWithPhotos(db, 'expense', content, id, content.receipts, added, removed, now);
}

/** The photos a record of a kind that holds photos names (the kinds the server's sweep reads too). */
export const PHOTO_HOLDERS = {
  expense: (content: RecordContents['expense']): readonly string[] => content.receipts,
  evidence: (content: RecordContents['evidence']): readonly string[] => (content.photoId === null ? [] : [content.photoId]),
} as const;

type PhotoHolderKind = keyof typeof PHOTO_HOLDERS & RecordKind;

/**
 * The one way a record and its photos are saved (expenses, evidence): the record with its outbox
 * item, the photos it gained and the removal of the ones the driver took off it, in ONE
 * transaction. Removing a photo is the driver's own discard, so its local copy goes (the
 * server's copy, if any, is swept once no record names it).
 */
export async function saveWithPhotos<K extends PhotoHolderKind>(
  db: LocalDb,
  kind: K,
  content: RecordContents[K],
  id: string | undefined,
  names: readonly string[],
  added: readonly NewReceipt[],
  removed: readonly string[],
  now: number = Date.now(),
): Promise<LocalRecord<RecordContents[K]>> {
  const table = kind === 'expense' ? db.expenses : db.evidence;
  return db.transaction('rw', [table, db.outbox, db.receiptPhotos], async () => {
    const saved = await saveRecord(db, kind, content, id);
    await db.receiptPhotos.bulkPut(
      added.map((photo) => ({
        id: photo.id,
        holderId: saved.id,
        blob: photo.blob,
        type: photo.blob.type,
        bytes: photo.blob.size,
        createdAt: now,
        uploadedAt: null,
        error: null,
      })),
    );
    const gone = removed.filter((photoId) => !names.includes(photoId));
    if (gone.length > 0) await db.receiptPhotos.bulkDelete(gone);
    return saved;
  });
}

/** "Try again" on a refused photo: it waits again; the next run sends it. */
export async function retryReceipt(db: LocalDb, id: string): Promise<void> {
  await db.receiptPhotos.update(id, { error: null });
}

/**
 * Drops local copies nobody needs: uploaded or refused photos that no live expense or evidence
 * item names and no unacknowledged change (a delete the driver may still Undo, or an edit)
 * names. A waiting photo is never dropped here: it uploads first, whatever happened to its
 * record, so nothing the driver may bring back is lost (the server sweeps photos no live record
 * names).
 */
export async function dropUnneededCopies(db: LocalDb): Promise<number> {
  return db.transaction('rw', db.expenses, db.evidence, db.receiptPhotos, async () => {
    const needed = new Set<string>();
    const note = <K extends PhotoHolderKind>(kind: K, record: LocalRecord<RecordContents[K]>) => {
      const names = PHOTO_HOLDERS[kind] as (content: RecordContents[K]) => readonly string[];
      const unacknowledged = record.syncState !== 'synced';
      if (record.deleted === 0 || unacknowledged) for (const id of names(record)) needed.add(id);
      const server = unacknowledged ? serverCopyOf(kind, record) : null;
      if (server) for (const id of names(server)) needed.add(id);
    };
    await db.expenses.each((expense) => note('expense', expense));
    await db.evidence.each((item) => note('evidence', item));
    const drop: string[] = [];
    await db.receiptPhotos.each((photo) => {
      if (!isWaiting(photo) && !needed.has(photo.id)) drop.push(photo.id);
    });
    await db.receiptPhotos.bulkDelete(drop);
    return drop.length;
  });
}

const downloads = new Map<string, Promise<void>>();

/**
 * Brings a photo another device uploaded onto this one (a record names it, the device lacks
 * it), kept as an uploaded copy so it shows offline from now on. One download per photo at a
 * time in this tab; a failure (offline, not uploaded yet) leaves nothing and may be retried.
 */
export function cacheReceipt(db: LocalDb, id: string, holderId: string, api: ReceiptApi = httpReceiptApi(), now: () => number = Date.now): Promise<void> {
  const key = `${db.name}/${id}`;
  let download = downloads.get(key);
  if (!download) {
    download = (async () => {
      if (await db.receiptPhotos.get(id)) return;
      const blob = await api.download(id);
      await db.transaction('rw', db.receiptPhotos, async () => {
        // Taken on this device meanwhile (or cached by another tab): keep that row as it is.
        if (await db.receiptPhotos.get(id)) return;
        const at = now();
        await db.receiptPhotos.add({ id, holderId, blob, type: blob.type || 'image/jpeg', bytes: blob.size, createdAt: at, uploadedAt: at, error: null });
      });
    })().finally(() => downloads.delete(key));
    downloads.set(key, download);
  }
  return download;
}

/** The part of the Web Locks API the queue uses (navigator.locks). */
export interface Locks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

export interface ReceiptQueueOptions {
  db: LocalDb;
  api?: ReceiptApi;
  /** navigator.locks where the browser has it: one uploader per user across tabs. */
  locks?: Locks | null;
  now?: () => number;
}

/**
 * Uploads waiting photos, oldest first, one at a time. One queue per tab (the tab that leads
 * sync owns it, sync/coordinator.ts) and a Web Lock across tabs, so one id is never sent twice
 * at once; a resend after a lost answer is harmless (the server answers 200 for an id it has).
 */
export class ReceiptQueue {
  private readonly db: LocalDb;
  private readonly api: ReceiptApi;
  private readonly locks: Locks | null;
  private readonly now: () => number;
  private running: Promise<void> | null = null;
  private again = false;
  /** A 401: nothing goes until a sync succeeds again (the driver signed back in). */
  private signedOut = false;
  private stopped = false;

  constructor(options: ReceiptQueueOptions) {
    this.db = options.db;
    this.api = options.api ?? httpReceiptApi();
    this.locks = options.locks === undefined ? defaultLocks() : options.locks;
    this.now = options.now ?? Date.now;
  }

  /** A sync cycle succeeded: the session is good and the server reachable. */
  afterSync(): Promise<void> {
    this.signedOut = false;
    return this.run();
  }

  /** The browser came online. Waits for a sync instead while the sign-in has expired. */
  whenOnline(): Promise<void> {
    return this.signedOut ? Promise.resolve() : this.run();
  }

  /** The tab stops leading sync (or the user signs out): no further uploads start here. */
  stop(): void {
    this.stopped = true;
  }

  /** Runs the queue; a call while it runs makes it go round once more (a photo added meanwhile). */
  run(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.again = true;
    this.running ??= this.loop().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) void this.run();
    });
    return this.running;
  }

  private async loop(): Promise<void> {
    while (this.again && !this.stopped && !this.signedOut) {
      this.again = false;
      try {
        await this.exclusive(() => this.drain());
      } catch {
        // The device's database failed (storage pressure, a closing tab): the next run retries.
        break;
      }
    }
    this.again = false;
  }

  private exclusive(work: () => Promise<void>): Promise<void> {
    return this.locks ? this.locks.request(`receipt-upload-${this.db.userId}`, work) : work();
  }

  private async drain(): Promise<void> {
    try {
      const waiting: ReceiptPhoto[] = [];
      await this.db.receiptPhotos.each((photo) => {
        if (isWaiting(photo)) waiting.push(photo);
      });
      waiting.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
      for (const { id } of waiting) {
        if (this.stopped) return;
        // Read again: another tab may have sent it, or the driver removed it, meanwhile.
        const photo = await this.db.receiptPhotos.get(id);
        if (!photo || !isWaiting(photo)) continue;
        if ((await this.send(photo)) === 'stop') return;
      }
    } finally {
      await dropUnneededCopies(this.db);
    }
  }

  private async send(photo: ReceiptPhoto): Promise<'next' | 'stop'> {
    try {
      await this.api.upload(photo.id, photo.blob);
    } catch (error) {
      const failure = uploadFailureOf(error);
      if (failure.kind === 'stop') {
        if (failure.signedOut) this.signedOut = true;
        return 'stop';
      }
      if (failure.kind === 'refused') await this.db.receiptPhotos.update(photo.id, { error: failure.message });
      return 'next';
    }
    await this.db.receiptPhotos.update(photo.id, { uploadedAt: this.now(), error: null });
    return 'next';
  }
}

function defaultLocks(): Locks | null {
  return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null;
}
