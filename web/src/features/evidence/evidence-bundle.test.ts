// Where a bundle is built: on the device from Dexie when every photo is there (no request at
// all), else by the server; and what the driver is told when neither can.
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { Manifest } from '@/core/evidence-bundle/bundle';
import { isApiError } from '@/lib/api';
import type { LocalDb } from '@/sync/db';
import type { LocalEntry } from '@/sync/types';
import { readZip } from '@/testing/read-zip';
import { createTestSyncHandle } from '@/testing/sync-handle';
import { saveEvidence } from './commands';
import { makeEvidenceBundle } from './evidence-bundle';

const PHOTO_ID = '0190a6e2-7c1d-7000-8000-000000000e01';
const jpeg = Uint8Array.from({ length: 2048 }, (_, i) => (i * 7) & 0xff);
const range = { from: '2026-11-01', to: '2026-11-30' };

async function deviceWithPhoto(): Promise<LocalDb> {
  const handle = createTestSyncHandle();
  await handle.db.entries.put({ id: 'day-1', date: '2026-11-02', deleted: 0 } as unknown as LocalEntry);
  await saveEvidence(
    handle,
    { entryId: 'day-1', statementLineId: null, statementQueryId: null, type: 'photo', recordedAt: '2026-11-02T14:05:00.000Z', text: '', photoId: PHOTO_ID, purpose: 'damage', minutes: null, place: '', fromWhom: '' },
    { id: PHOTO_ID, blob: new Blob([jpeg], { type: 'image/jpeg' }) },
  );
  return handle.db;
}

const manifestOf = async (blob: Blob) => JSON.parse(new TextDecoder().decode(readZip(new Uint8Array(await blob.arrayBuffer())).find((e) => e.name === 'manifest.json')!.bytes)) as Manifest;

describe('makeEvidenceBundle', () => {
  it('builds on the device when every photo is there, asking the server nothing', async () => {
    const db = await deviceWithPhoto();
    const fetchImpl = vi.fn<typeof fetch>();
    const made = await makeEvidenceBundle(db, range, 'Sam', fetchImpl, () => new Date('2026-12-01T09:00:00Z'));
    expect(fetchImpl).not.toHaveBeenCalled();
    expect(made).toMatchObject({ fileName: 'evidence-2026-11-01-to-2026-11-30.zip', builtBy: 'device' });
    const manifest = await manifestOf(made.blob);
    expect(manifest.files.map((f) => f.name)).toEqual(['summary.html', `photos/2026-11-02-damage-${PHOTO_ID}.jpg`]);
    expect(manifest.files[1]!.bytes).toBe(jpeg.length);
  });

  it('asks the server for the bundle when a photo is not on the device', async () => {
    const db = await deviceWithPhoto();
    await db.receiptPhotos.clear();
    const fromServer = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Uint8Array(18)]);
    const fetchImpl = vi.fn<typeof fetch>(() => Promise.resolve(new Response(fromServer, { status: 200, headers: { 'Content-Type': 'application/zip' } })));
    const made = await makeEvidenceBundle(db, range, 'Sam', fetchImpl);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(fetchImpl.mock.calls[0]![0]).toBe('/api/v1/evidence-bundle?from=2026-11-01&to=2026-11-30');
    expect(made).toMatchObject({ fileName: 'evidence-2026-11-01-to-2026-11-30.zip', builtBy: 'server' });
    expect(new Uint8Array(await made.blob.arrayBuffer())).toEqual(fromServer);
  });

  it('says why when the server cannot be reached or refuses', async () => {
    const db = await deviceWithPhoto();
    await db.receiptPhotos.clear();
    const offline = await makeEvidenceBundle(db, range, '', () => Promise.reject(new TypeError('Failed to fetch'))).catch((error: unknown) => error);
    expect(isApiError(offline) && offline.code).toBe('network');
    expect((offline as Error).message).toMatch(/^A photo of this bundle is not on this device yet/);
    const body = { error: { code: 'validation', message: 'A bundle covers at most 366 days: choose a shorter range', fields: { to: ['A bundle covers at most 366 days: choose a shorter range'] } } };
    const refused = await makeEvidenceBundle(db, range, '', () => Promise.resolve(Response.json(body, { status: 422 }))).catch((error: unknown) => error);
    expect(isApiError(refused) && refused.status).toBe(422);
    expect((refused as Error).message).toBe('A bundle covers at most 366 days: choose a shorter range');
  });
});
