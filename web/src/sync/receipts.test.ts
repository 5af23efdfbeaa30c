import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api';
import { apiError, createFakeFetch, json, networkFailure } from '@/testing/fake-fetch';
import { WAIT } from '@/testing/wait';
import { deleteRecord, undoDelete } from './commands';
import { LocalDb } from './db';
import { newId } from './ids';
import {
  cacheReceipt,
  dropUnneededCopies,
  httpReceiptApi,
  receiptCounts,
  ReceiptQueue,
  retryReceipt,
  saveExpenseWithReceipts,
  saveWithPhotos,
  uploadFailureOf,
  type Locks,
  type ReceiptApi,
} from './receipts';
import type { ExpenseContent } from './types';

/** The server's receipts routes in memory: idempotent by id, with failures to inject. */
class FakeReceiptServer implements ReceiptApi {
  /** Photos stored, by id: each stored at most once, as the server's receipts table does. */
  stored = new Map<string, number>();
  /** Every upload request, in order (ids). */
  requests: string[] = [];
  /** What the next uploads answer, in order: an error, or 'lost' (stored, but the answer never arrives). */
  next: (ApiError | 'lost')[] = [];
  /** While set, uploads wait for release(). */
  holding = false;
  private held: (() => void)[] = [];
  downloads = 0;

  async upload(id: string, blob: Blob): Promise<void> {
    this.requests.push(id);
    if (this.holding) await new Promise<void>((resolve) => this.held.push(resolve));
    const outcome = this.next.shift();
    if (outcome instanceof ApiError) throw outcome;
    if (!this.stored.has(id)) this.stored.set(id, blob.size);
    if (outcome === 'lost') throw new ApiError({ status: 0, code: 'network' });
  }

  async download(id: string): Promise<Blob> {
    this.downloads += 1;
    if (!this.stored.has(id)) throw new ApiError({ status: 404, code: 'not-found', message: 'Not found' });
    return photoBlob(this.stored.get(id) ?? 1);
  }

  release(): void {
    this.holding = false;
    for (const resolve of this.held.splice(0)) resolve();
  }
}

/** One browser's Web Locks, shared by the queues of two tabs: each holder in turn. */
function memoryLocks(): Locks {
  const tails = new Map<string, Promise<unknown>>();
  return {
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      const previous = tails.get(name) ?? Promise.resolve();
      const mine = previous.then(callback, callback);
      tails.set(name, mine.catch(() => undefined));
      return mine;
    },
  };
}

/**
 * A photo's bytes as Node's own Blob (Response is Node's here, jsdom has none): fake-indexeddb
 * stores values with Node's structuredClone, which keeps Node Blobs, while jsdom's would come
 * back empty. The browser's IndexedDB stores its own Blobs.
 */
function photoBlob(size = 4): Promise<Blob> {
  return new Response(new Uint8Array(size).fill(7), { headers: { 'Content-Type': 'image/jpeg' } }).blob();
}

const expense = (receipts: string[]): ExpenseContent => ({
  date: '2025-05-02',
  amount: 4_550,
  category: 'fuel',
  note: 'Diesel',
  courierId: null,
  vehicleId: null,
  repeat: 'once',
  repeatUntil: null,
  receipts,
});

let db: LocalDb;
let server: FakeReceiptServer;
let clock: number;

function queue(locks: Locks | null = null): ReceiptQueue {
  return new ReceiptQueue({ db, api: server, locks, now: () => clock });
}

/** Saves an expense with `count` new photos, as the form does; returns the photo ids. */
async function expenseWithPhotos(count: number): Promise<{ expenseId: string; photos: string[] }> {
  // Photos kept in one save go oldest id first (they share the time).
  const photos = Array.from({ length: count }, () => newId()).sort();
  clock += 1;
  const saved = await saveExpenseWithReceipts(db, expense(photos), undefined, await Promise.all(photos.map(async (id) => ({ id, blob: await photoBlob() }))), [], clock);
  return { expenseId: saved.id, photos };
}

beforeEach(() => {
  db = new LocalDb(`test-${crypto.randomUUID()}`, crypto.randomUUID());
  server = new FakeReceiptServer();
  clock = 1_000;
});

afterEach(async () => {
  db.close();
  await db.delete();
});

describe('saving an expense with photos', () => {
  it('keeps the expense, its outbox item and its photos together, waiting to upload', async () => {
    const { expenseId, photos } = await expenseWithPhotos(2);
    expect((await db.expenses.get(expenseId))?.receipts).toEqual(photos);
    expect(await db.outbox.count()).toBe(1);
    const stored = await db.receiptPhotos.get(photos[0]!);
    expect(stored).toMatchObject({ holderId: expenseId, type: 'image/jpeg', bytes: 4, uploadedAt: null, error: null });
    expect(await receiptCounts(db)).toEqual({ waiting: 2, failed: 0 });
  });

  it('drops the local copy of a photo the driver took off the expense, in the same save', async () => {
    const { expenseId, photos } = await expenseWithPhotos(2);
    const [kept, removed] = photos as [string, string];
    await saveExpenseWithReceipts(db, expense([kept]), expenseId, [], [removed]);
    expect(await db.receiptPhotos.get(removed)).toBeUndefined();
    expect(await db.receiptPhotos.get(kept)).toBeDefined();
  });

  it('stores nothing when keeping a photo fails: no expense, no outbox item, no photo', async () => {
    const photo = newId();
    // A value IndexedDB cannot store (it holds a function) fails the photo's write after the
    // expense's: the one transaction takes both back.
    const unstorable = { size: 1, type: 'image/jpeg', read: () => 1 } as unknown as Blob;
    await expect(saveExpenseWithReceipts(db, expense([photo]), undefined, [{ id: photo, blob: unstorable }], [])).rejects.toThrow();
    expect(await db.expenses.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.receiptPhotos.count()).toBe(0);
  });
});

describe('the upload queue', () => {
  it('uploads each waiting photo once and keeps it on the device as uploaded', async () => {
    const { photos } = await expenseWithPhotos(2);
    clock = 5_000;
    await queue().afterSync();
    expect(server.requests).toEqual(photos);
    expect([...server.stored.keys()]).toEqual(photos);
    for (const id of photos) expect(await db.receiptPhotos.get(id)).toMatchObject({ uploadedAt: 5_000, error: null, bytes: 4 });
    expect(await receiptCounts(db)).toEqual({ waiting: 0, failed: 0 });
    await queue().afterSync();
    expect(server.requests).toHaveLength(2);
  });

  it('sends again after a lost answer, and the server still holds one copy', async () => {
    const { photos } = await expenseWithPhotos(1);
    server.next = ['lost'];
    const uploads = queue();
    await uploads.afterSync();
    expect(server.stored.size).toBe(1);
    expect((await db.receiptPhotos.get(photos[0]!))?.uploadedAt).toBeNull();
    await uploads.afterSync();
    expect(server.requests).toEqual([photos[0], photos[0]]);
    expect(server.stored.size).toBe(1);
    expect((await db.receiptPhotos.get(photos[0]!))?.uploadedAt).not.toBeNull();
  });

  it('stops at a 401 and loses nothing; coming online waits for the next good sync', async () => {
    const { photos } = await expenseWithPhotos(2);
    server.next = [new ApiError({ status: 401, code: 'unauthenticated', message: 'Sign in' })];
    const uploads = queue();
    await uploads.afterSync();
    expect(server.requests).toEqual([photos[0]]);
    await uploads.whenOnline();
    expect(server.requests).toHaveLength(1);
    expect(await receiptCounts(db)).toEqual({ waiting: 2, failed: 0 });
    await uploads.afterSync();
    expect(server.stored.size).toBe(2);
    expect(await receiptCounts(db)).toEqual({ waiting: 0, failed: 0 });
  });

  it("marks a photo the server refuses as failed with its words, uploads the others, and tries again when asked", async () => {
    const { photos } = await expenseWithPhotos(2);
    const [refused, fine] = photos as [string, string];
    server.next = [new ApiError({ status: 415, code: 'unsupported-media-type', message: 'This file is not a JPEG, PNG or WebP picture.' })];
    const uploads = queue();
    await uploads.afterSync();
    expect(await db.receiptPhotos.get(refused)).toMatchObject({ uploadedAt: null, error: 'This file is not a JPEG, PNG or WebP picture.' });
    expect((await db.receiptPhotos.get(fine))?.uploadedAt).not.toBeNull();
    expect(await receiptCounts(db)).toEqual({ waiting: 0, failed: 1 });
    // Refused photos are not retried by themselves...
    await uploads.afterSync();
    expect(server.requests).toEqual([refused, fine]);
    // ...only after "Try again".
    await retryReceipt(db, refused);
    await uploads.afterSync();
    expect(server.requests).toEqual([refused, fine, refused]);
    expect(await db.receiptPhotos.get(refused)).toMatchObject({ error: null });
    expect(server.stored.size).toBe(2);
  });

  it('retries server trouble on the next run: a 5xx skips to the next photo, no network stops the run', async () => {
    const { photos } = await expenseWithPhotos(3);
    const [a, b, c] = photos as [string, string, string];
    server.next = [new ApiError({ status: 503, code: 'unknown' }), new ApiError({ status: 0, code: 'network' })];
    const uploads = queue();
    await uploads.afterSync();
    expect(server.requests).toEqual([a, b]);
    expect(await receiptCounts(db)).toEqual({ waiting: 3, failed: 0 });
    server.next = [new ApiError({ status: 429, code: 'rate-limited' })];
    await uploads.afterSync();
    expect(server.requests).toEqual([a, b, a]);
    await uploads.afterSync();
    expect(server.requests).toEqual([a, b, a, a, b, c]);
    expect(server.stored.size).toBe(3);
    expect(await receiptCounts(db)).toEqual({ waiting: 0, failed: 0 });
  });

  it('never sends one id twice at once: runs of one tab join, and two tabs take turns', async () => {
    const { photos } = await expenseWithPhotos(2);
    server.holding = true;
    const locks = memoryLocks();
    const tab1 = queue(locks);
    const tab2 = queue(locks);
    const runs = [tab1.afterSync(), tab1.whenOnline(), tab2.afterSync(), tab1.afterSync(), tab2.whenOnline()];
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), WAIT);
    server.release();
    await Promise.all(runs);
    expect(server.requests).toEqual(photos);
    expect(server.stored.size).toBe(2);
  });

  it('picks up a photo added while it runs', async () => {
    const first = await expenseWithPhotos(1);
    server.holding = true;
    const uploads = queue();
    const running = uploads.afterSync();
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), WAIT);
    const second = await expenseWithPhotos(1);
    const joined = uploads.afterSync();
    server.release();
    await Promise.all([running, joined]);
    expect(server.requests).toEqual([...first.photos, ...second.photos]);
  });

  it('sends nothing after the tab stops leading', async () => {
    await expenseWithPhotos(1);
    const uploads = queue();
    uploads.stop();
    await uploads.afterSync();
    expect(server.requests).toEqual([]);
  });
});

describe('photos of a deleted expense', () => {
  it('stay while the delete may be undone, still upload, and leave the device once the delete is acknowledged', async () => {
    const { expenseId, photos } = await expenseWithPhotos(1);
    const photo = photos[0]!;
    const before = (await db.expenses.get(expenseId))!;
    await deleteRecord(db, 'expense', expenseId);
    await queue().afterSync();
    // Uploaded even so: an Undo brings the expense back listing it.
    expect(server.stored.has(photo)).toBe(true);
    expect(await db.receiptPhotos.get(photo)).toBeDefined();
    // Undo while the delete is still on the device: the expense lists its photo, which is there.
    await undoDelete(db, 'expense', before);
    expect((await db.expenses.get(expenseId))?.deleted).toBe(0);
    expect(await dropUnneededCopies(db)).toBe(0);
    // Deleted again, and this time the server has the delete (what the engine records on an ack).
    await deleteRecord(db, 'expense', expenseId);
    await db.outbox.clear();
    await db.expenses.update(expenseId, { syncState: 'synced' });
    expect(await dropUnneededCopies(db)).toBe(1);
    expect(await db.receiptPhotos.count()).toBe(0);
  });

  it('never drops a photo still waiting to upload, whatever became of its expense', async () => {
    const { expenseId, photos } = await expenseWithPhotos(1);
    await deleteRecord(db, 'expense', expenseId);
    await db.outbox.clear();
    await db.expenses.update(expenseId, { syncState: 'synced' });
    expect(await dropUnneededCopies(db)).toBe(0);
    expect((await db.receiptPhotos.get(photos[0]!))?.uploadedAt).toBeNull();
  });
});

describe('a photo from another device', () => {
  it('is downloaded once and kept as an uploaded copy', async () => {
    const id = newId();
    server.stored.set(id, 9);
    clock = 7_000;
    await Promise.all([cacheReceipt(db, id, 'expense-1', server, () => clock), cacheReceipt(db, id, 'expense-1', server, () => clock)]);
    expect(server.downloads).toBe(1);
    expect(await db.receiptPhotos.get(id)).toMatchObject({ holderId: 'expense-1', bytes: 9, uploadedAt: 7_000, error: null });
    await cacheReceipt(db, id, 'expense-1', server);
    expect(server.downloads).toBe(1);
    // Not a waiting photo: the queue has nothing to send.
    await queue().afterSync();
    expect(server.requests).toEqual([]);
  });

  it('leaves nothing when the other device has not uploaded it yet, and can try again', async () => {
    const id = newId();
    await expect(cacheReceipt(db, id, 'expense-1', server)).rejects.toMatchObject({ status: 404 });
    expect(await db.receiptPhotos.count()).toBe(0);
    server.stored.set(id, 3);
    await cacheReceipt(db, id, 'expense-1', server);
    expect(server.downloads).toBe(2);
  });
});

describe('the receipts routes over HTTP', () => {
  const id = '0190a6e2-7c1d-7000-8000-000000000001';

  it('sends the photo as the multipart part "file" with PUT to its own id', async () => {
    const fake = createFakeFetch({ [`PUT /api/v1/receipts/${id}`]: () => json(201, { id, bytes: 3, createdAt: '2025-05-02T10:00:00Z' }) });
    await httpReceiptApi(fake.fetch).upload(id, new Blob([new Uint8Array([1, 2, 3])], { type: 'image/jpeg' }));
    const body = fake.calls[0]?.init?.body;
    expect(body).toBeInstanceOf(FormData);
    expect(((body as FormData).get('file') as File).size).toBe(3);
    expect(fake.calls[0]?.init?.credentials).toBe('same-origin');
  });

  it('accepts 200 for a photo the server already has, and nothing that is not its answer about this photo', async () => {
    const fake = createFakeFetch({ [`PUT /api/v1/receipts/${id}`]: () => json(200, { id, bytes: 3, createdAt: '2025-05-02T10:00:00Z' }) });
    const api = httpReceiptApi(fake.fetch);
    await expect(api.upload(id, new Blob(['x']))).resolves.toBeUndefined();
    fake.on(`PUT /api/v1/receipts/${id}`, () => new Response('<html>Wi-Fi login</html>', { status: 200 }));
    const portal = await api.upload(id, new Blob(['x'])).catch((error: unknown) => error);
    expect(uploadFailureOf(portal)).toEqual({ kind: 'later' });
    fake.on(`PUT /api/v1/receipts/${id}`, () => json(200, { id: 'another', bytes: 3, createdAt: 'c' }));
    expect(uploadFailureOf(await api.upload(id, new Blob(['x'])).catch((error: unknown) => error))).toEqual({ kind: 'later' });
  });

  it('reads failures as the queue needs them', async () => {
    const fake = createFakeFetch();
    const api = httpReceiptApi(fake.fetch);
    const failureOf = async (response: () => Response) => {
      fake.on(`PUT /api/v1/receipts/${id}`, response);
      return uploadFailureOf(await api.upload(id, new Blob(['x'])).catch((error: unknown) => error));
    };
    expect(await failureOf(networkFailure)).toEqual({ kind: 'stop', signedOut: false });
    expect(await failureOf(() => apiError(401, 'unauthenticated'))).toEqual({ kind: 'stop', signedOut: true });
    expect(await failureOf(() => apiError(429, 'rate-limited'))).toEqual({ kind: 'stop', signedOut: false });
    expect(await failureOf(() => apiError(408, 'timeout'))).toEqual({ kind: 'stop', signedOut: false });
    expect(await failureOf(() => apiError(500, 'internal'))).toEqual({ kind: 'later' });
    expect(await failureOf(() => new Response('Bad gateway', { status: 502 }))).toEqual({ kind: 'later' });
    const quota = 'Your receipt photos have used your 100 MB of storage. Delete old receipts to add new ones.';
    expect(await failureOf(() => apiError(413, 'quota-exceeded', quota))).toEqual({ kind: 'refused', message: quota });
    expect(await failureOf(() => new Response('', { status: 413 }))).toEqual({ kind: 'refused', message: 'The server refused this photo (413)' });
  });

  it('offline, downloads the copy the browser cached last time, however old', async () => {
    const asked: (RequestCache | undefined)[] = [];
    const offline: typeof fetch = (_input, init) => {
      asked.push(init?.cache);
      if (init?.cache === 'only-if-cached') return Promise.resolve(new Response(new Uint8Array([7, 7, 7]), { status: 200 }));
      return Promise.reject(new TypeError('Failed to fetch'));
    };
    expect((await httpReceiptApi(offline).download(id)).size).toBe(3);
    expect(asked).toEqual([undefined, 'only-if-cached']);
    const nothingCached: typeof fetch = (_input, init) =>
      init?.cache === 'only-if-cached' ? Promise.resolve(new Response(null, { status: 504 })) : Promise.reject(new TypeError('Failed to fetch'));
    await expect(httpReceiptApi(nothingCached).download(id)).rejects.toMatchObject({ code: 'network' });
  });

  it('downloads a photo with GET', async () => {
    const fake = createFakeFetch({ [`GET /api/v1/receipts/${id}`]: () => new Response(new Uint8Array([1, 2]), { status: 200, headers: { 'Content-Type': 'image/jpeg' } }) });
    const blob = await httpReceiptApi(fake.fetch).download(id);
    expect(blob.size).toBe(2);
    fake.on(`GET /api/v1/receipts/${id}`, () => apiError(404, 'not-found'));
    await expect(httpReceiptApi(fake.fetch).download(id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('an evidence item with a photo (the same pipeline)', () => {
  const content = (photoId: string) => ({
    entryId: 'day-1',
    statementLineId: null,
    statementQueryId: null,
    type: 'photo' as const,
    recordedAt: '2026-03-02T14:05:00.000Z',
    text: '',
    photoId,
    purpose: 'proofOfDelivery' as const,
    minutes: null,
    place: '',
    fromWhom: '',
  });

  it('keeps the item and its photo in one save, uploads the photo once, and keeps the copy while the item lives', async () => {
    const photo = newId();
    const saved = await saveWithPhotos(db, 'evidence', content(photo), undefined, [photo], [{ id: photo, blob: await photoBlob() }], [], clock);
    expect(await db.outbox.count()).toBe(1);
    expect(await db.receiptPhotos.get(photo)).toMatchObject({ holderId: saved.id, uploadedAt: null });
    await queue().afterSync();
    await queue().afterSync();
    expect(server.requests).toEqual([photo]);
    // Acknowledged and live: the copy stays; deleted and acknowledged: it goes.
    await db.outbox.clear();
    await db.evidence.update(saved.id, { syncState: 'synced' });
    expect(await dropUnneededCopies(db)).toBe(0);
    await deleteRecord(db, 'evidence', saved.id);
    await db.outbox.clear();
    await db.evidence.update(saved.id, { syncState: 'synced' });
    expect(await dropUnneededCopies(db)).toBe(1);
  });
});
