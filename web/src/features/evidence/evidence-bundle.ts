// Where an evidence bundle is built (issue 28): on this device, from Dexie, when every photo its
// items name is here (it works offline); else by the server for the signed-in owner (a second
// device that never opened a photo), which writes the same layout (docs/api.md "Evidence bundle").
import { evidenceFor, type EvidenceScope } from '@/core/evidence/evidence';
import { buildBundle, bundleFileName, missingPhotos, type BundlePhoto, type BundleQuery } from '@/core/evidence-bundle/bundle';
import { ApiError, parseErrorResponse } from '@/lib/api';
import { evidenceBundlePath } from '@/lib/paths';
import type { LocalDb } from '@/sync/db';

export type BundleRequest = { query: BundleQuery } | { from: string; to: string };

export interface MadeBundle {
  fileName: string;
  blob: Blob;
  builtBy: 'device' | 'server';
}

/** The bundle of a query or a range, built here when it can be, else fetched from the server. */
export async function makeEvidenceBundle(db: LocalDb, request: BundleRequest, driver: string, fetchImpl: typeof fetch = (input, init) => fetch(input, init), now: () => Date = () => new Date()): Promise<MadeBundle> {
  const scope: EvidenceScope = 'query' in request ? { queryId: request.query.id } : { from: request.from, to: request.to };
  const [evidence, entries, lines, queries] = await Promise.all([
    db.evidence.where('deleted').equals(0).toArray(),
    db.entries.where('deleted').equals(0).toArray(),
    db.statementLines.where('deleted').equals(0).toArray(),
    db.statementQueries.where('deleted').equals(0).toArray(),
  ]);
  const items = evidenceFor(scope, { evidence, entries, lines, queries });
  const photos = new Map<string, BundlePhoto>();
  for (const item of items) {
    const id = item.evidence.photoId;
    if (!id || photos.has(id)) continue;
    const stored = await db.receiptPhotos.get(id);
    if (stored) photos.set(id, { bytes: new Uint8Array(await stored.blob.arrayBuffer()), type: stored.type });
  }
  if (missingPhotos(items, (id) => photos.has(id)).length === 0) {
    const bundle = buildBundle({ scope: request, evidence: items, photos, driver, builtAt: now() });
    return { fileName: bundle.fileName, blob: new Blob([bundle.bytes], { type: 'application/zip' }), builtBy: 'device' };
  }
  let response: Response;
  try {
    response = await fetchImpl(evidenceBundlePath(scope), { credentials: 'same-origin', headers: { Accept: 'application/zip, application/json' } });
  } catch (cause) {
    throw new ApiError({ status: 0, code: 'network', message: 'A photo of this bundle is not on this device yet, and the server cannot be reached: connect to the internet and try again.', cause });
  }
  if (!response.ok) throw await parseErrorResponse(response);
  const fileName = bundleFileName('query' in request ? { madeOn: request.query.content.madeOn } : request);
  return { fileName, blob: await response.blob(), builtBy: 'server' };
}
