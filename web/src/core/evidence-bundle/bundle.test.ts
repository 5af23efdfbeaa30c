import { describe, expect, it } from 'vitest';
import type { Difference } from '@/core/statement-lines/match-statement';
import { makeQuery } from '@/core/statement-queries/query';
import { evidenceFor, type EvidenceRecord } from '@/core/evidence/evidence';
import { readZip } from '@/testing/read-zip';
import { buildBundle, bundleFileName, missingPhotos, NOT_ON_SERVER, OWN_RECORD, photoFileName, recordedEvidenceWords, type BundleInput, type Manifest } from './bundle';

const PHOTO_ID = '0190a6e2-7c1d-7000-8000-000000000e01';

function evidence(overrides: Partial<EvidenceRecord> = {}): EvidenceRecord {
  return {
    id: '0190a6e2-7c1d-7000-8000-000000000d01',
    entryId: null,
    statementLineId: 'line-1',
    statementQueryId: null,
    type: 'photo',
    recordedAt: '2026-11-02T14:05:00.123Z',
    text: 'Left with neighbour at no. 12',
    photoId: PHOTO_ID,
    purpose: 'proofOfDelivery',
    minutes: null,
    place: '',
    fromWhom: '',
    createdAt: '2026-11-02T14:05:00.200Z',
    deleted: 0,
    ...overrides,
  };
}

const difference: Difference = { kind: 'fewerStops', date: '2026-11-02', words: '3 stops logged but not paid', logged: '121 stops', paid: '118 stops', cardRate: 150, amount: 450, entryIds: ['day-1'], lineIds: ['line-1'] };
const photo = evidence();
const synced = evidence({ id: '0190a6e2-7c1d-7000-8000-000000000d02', type: 'waiting', photoId: null, purpose: null, text: '', minutes: 55, place: 'Depot', entryId: 'day-1', statementLineId: null, recordedAt: '2026-11-02T06:40:00.000Z', createdAt: '2026-11-02T07:00:00Z', server: {} });
const jpeg = Uint8Array.from({ length: 3000 }, (_, i) => (i * 13) & 0xff);
const query = makeQuery('check-1', [difference], '2026-11-09', [photo, synced])!;
const sources = { evidence: [photo, synced], entries: [{ id: 'day-1', date: '2026-11-02' }], lines: [{ id: 'line-1', date: '2026-11-02' }], queries: [{ id: 'query-1', madeOn: '2026-11-09', items: query.items }] };
const context = { courierName: 'Parcel Co', periodStart: '2026-10-27', periodEnd: '2026-11-02', reference: 'ST-1', from: 'Sam Driver' };

function queryInput(overrides: Partial<BundleInput> = {}): BundleInput {
  return {
    scope: { query: { id: 'query-1', content: query, context } },
    evidence: evidenceFor({ queryId: 'query-1' }, sources),
    photos: new Map([[PHOTO_ID, { bytes: jpeg, type: 'image/jpeg' }]]),
    driver: 'Sam Driver',
    builtAt: new Date('2026-11-10T09:00:00Z'),
    ...overrides,
  };
}

// WebCrypto's digest, apart from the plain-TypeScript one the bundle uses.
const sha256 = async (bytes: Uint8Array) => [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>))].map((b) => b.toString(16).padStart(2, '0')).join('');
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('evidence bundle', () => {
  it('a query bundle holds the summary, the photo and the manifests; every listed hash is the file’s', async () => {
    const bundle = buildBundle(queryInput());
    expect(bundle.fileName).toBe('evidence-query-2026-11-09.zip');
    const entries = readZip(bundle.bytes);
    const photoName = 'photos/2026-11-02-proof-of-delivery-0190a6e2-7c1d-7000-8000-000000000e01.jpg';
    expect(entries.map((e) => e.name)).toEqual(['summary.html', photoName, 'manifest.json', 'manifest.txt']);
    const manifest = JSON.parse(text(entries.find((e) => e.name === 'manifest.json')!.bytes)) as Manifest;
    expect(manifest).toEqual(bundle.manifest);
    expect(manifest.files.map((f) => f.name)).toEqual(['summary.html', photoName]);
    for (const file of manifest.files) {
      const entry = entries.find((e) => e.name === file.name)!;
      expect(file.sha256).toBe(await sha256(entry.bytes));
      expect(file.bytes).toBe(entry.bytes.length);
    }
    expect(entries[1]!.bytes).toEqual(jpeg);
    expect(manifest.files[1]).toMatchObject({ evidenceId: photo.id, recordedAt: photo.recordedAt, createdAt: null });
    expect(manifest.statement).toBe(OWN_RECORD);
    expect(manifest.scope).toEqual({ queryId: 'query-1' });
    expect(manifest.query).toMatchObject({ id: 'query-1', madeOn: '2026-11-09', total: 450, chain: { holds: true, firstChangedItem: null, head: query.items.at(-1)!.hash } });
    expect(manifest.query!.items).toEqual(query.items);
    // The synced item carries the server's time; the photo made offline says it is not there yet.
    expect(manifest.items.map((i) => [i.id, i.day, i.on, i.words, i.createdAt, i.photo])).toEqual([
      [synced.id, '2026-11-02', 'day', 'Waiting time: 55 minutes at Depot', '2026-11-02T07:00:00Z', null],
      [photo.id, '2026-11-02', 'line', 'Photo (proof of delivery): Left with neighbour at no. 12', null, photoName],
    ]);
  });

  it('the summary is the driver’s own record: the letter, names, dates, £ amounts, the chain and each item with its times', async () => {
    const entries = readZip(buildBundle(queryInput()).bytes);
    const html = text(entries[0]!.bytes);
    expect(html).toContain("This is the driver's own record");
    expect(html).toContain('Query about the statement for 27/10/2026 to 02/11/2026');
    expect(html).toContain('To Parcel Co,');
    expect(html).toContain('reference ST-1');
    expect(html).toContain('3 stops logged but not paid');
    expect(html).toContain('£4.50');
    expect(html).toContain('Total owed to me: £4.50');
    expect(html).toContain('Sam Driver');
    expect(html).toContain('Chain checked: every item is as recorded');
    expect(html).toContain('Mon 02/11/2026');
    expect(html).toContain(`<img src="photos/2026-11-02-proof-of-delivery-${PHOTO_ID}.jpg"`);
    expect(html).toContain(NOT_ON_SERVER);
    expect(html).toContain('2026-11-02T07:00:00Z');
    const txt = text(entries[3]!.bytes);
    expect(txt).toContain(OWN_RECORD);
    expect(txt).toContain(`SHA-256 ${await sha256(entries[1]!.bytes)}`);
    expect(txt).toContain(`First stored by the server: ${NOT_ON_SERVER}`);
  });

  it('counts the evidence the query recorded in words that agree with the number', () => {
    expect(recordedEvidenceWords(1)).toBe('The query recorded 1 evidence item in its chain.');
    expect(recordedEvidenceWords(0)).toBe('The query recorded 0 evidence items in its chain.');
    expect(recordedEvidenceWords(2)).toBe('The query recorded 2 evidence items in its chain.');
  });

  it('text a driver typed is escaped in the summary', () => {
    const risky = evidence({ text: '<script>alert(1)</script> & "quotes"' });
    const input = queryInput({ evidence: evidenceFor({ queryId: 'query-1' }, { ...sources, evidence: [risky, synced] }) });
    const html = text(readZip(buildBundle(input).bytes)[0]!.bytes);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;');
  });

  it('a changed item shows in the chain check', () => {
    const items = query.items.map((item, i) => (i === 0 ? { ...item, amount: 900 } : item));
    const bundle = buildBundle(queryInput({ scope: { query: { id: 'query-1', content: { ...query, items }, context } } }));
    expect(bundle.manifest.query!.chain).toMatchObject({ holds: false, firstChangedItem: 1 });
    expect(text(readZip(bundle.bytes)[0]!.bytes)).toContain('Item 1 has changed since the query was recorded');
  });

  it('a range bundle holds every item of the range’s days, lines and queries', () => {
    const later = evidence({ id: 'later', type: 'note', text: 'Van broke down', photoId: null, purpose: null, entryId: 'day-9', statementLineId: null });
    const range = { ...sources, evidence: [photo, synced, later], entries: [...sources.entries, { id: 'day-9', date: '2026-12-01' }] };
    const bundle = buildBundle({ ...queryInput(), scope: { from: '2026-11-01', to: '2026-11-30' }, evidence: evidenceFor({ from: '2026-11-01', to: '2026-11-30' }, range) });
    expect(bundle.fileName).toBe('evidence-2026-11-01-to-2026-11-30.zip');
    expect(bundle.manifest.query).toBeNull();
    expect(bundle.manifest.scope).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(bundle.manifest.items.map((i) => i.id)).toEqual([synced.id, photo.id]);
    const html = text(readZip(bundle.bytes)[0]!.bytes);
    expect(html).toContain('Evidence bundle: 01/11/2026 to 30/11/2026');
    expect(html).not.toContain('Van broke down');
  });

  it('names what a device lacks, and will not build without it', () => {
    const scoped = evidenceFor({ queryId: 'query-1' }, sources);
    expect(missingPhotos(scoped, () => false)).toEqual([PHOTO_ID]);
    expect(missingPhotos(scoped, (id) => id === PHOTO_ID)).toEqual([]);
    expect(() => buildBundle(queryInput({ photos: new Map() }))).toThrow(/not on this device/);
  });

  it('file names sort by day and say what a photo shows', () => {
    expect(bundleFileName({ from: '2026-10-01', to: '2026-10-31' })).toBe('evidence-2026-10-01-to-2026-10-31.zip');
    expect(photoFileName('2026-11-02', 'endOfDaySummary', 'abc')).toBe('photos/2026-11-02-end-of-day-summary-abc.jpg');
    expect(photoFileName('2026-11-02', 'damage', 'abc', 'image/png')).toBe('photos/2026-11-02-damage-abc.png');
  });
});
