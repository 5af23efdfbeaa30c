// Receipt photos as screens read them: one photo's picture and upload state, and how many wait
// or were refused. The photos live in the device's receiptPhotos table (sync/receipts.ts).
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { useObjectUrl } from '@/lib/use-object-url';
import { useOnline } from '@/lib/use-online';
import { cacheReceipt, receiptCounts } from '@/sync/receipts';
import { useSyncHandle, useSyncStatus } from './use-sync';

export interface ReceiptView {
  /** The picture to show, or null while it is read (or not on this device). */
  url: string | null;
  /** 'waiting' to upload, 'uploaded', 'failed' (refused: `error` says why), 'missing' from this device. */
  state: 'loading' | 'waiting' | 'uploaded' | 'failed' | 'missing';
  error: string | null;
}

/**
 * One photo of an expense or an evidence item. A photo this device lacks (taken on another one) is fetched
 * once from the server and kept, so it shows offline from then on; while it cannot be fetched
 * (offline, or the other device has not uploaded it yet) it is 'missing' and retried after the
 * next sync or when the network returns.
 */
export function useReceipt(id: string, holderId: string): ReceiptView {
  const { db } = useSyncHandle();
  const photo = useLiveQuery(async () => (await db.receiptPhotos.get(id)) ?? null, [db, id]);
  const url = useObjectUrl(photo?.blob);
  const online = useOnline();
  const status = useSyncStatus();
  const lastSyncAt = status.state === 'synced' ? status.lastSyncAt : null;
  const absent = photo === null;
  const [failedFetch, setFailedFetch] = useState<string | null>(null);

  useEffect(() => {
    if (!absent || !online) return;
    let current = true;
    cacheReceipt(db, id, holderId).catch(() => {
      if (current) setFailedFetch(id);
    });
    return () => {
      current = false;
    };
  }, [db, id, holderId, absent, online, lastSyncAt]);

  if (photo === undefined) return { url: null, state: 'loading', error: null };
  if (photo === null) return { url: null, state: failedFetch === id || !online ? 'missing' : 'loading', error: null };
  const state = photo.uploadedAt !== null ? 'uploaded' : photo.error !== null ? 'failed' : 'waiting';
  return { url, state, error: photo.error };
}

/** How many receipt photos wait to upload and how many the server refused; undefined at first. */
export function useReceiptQueue(): { waiting: number; failed: number } | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(() => receiptCounts(db), [db]);
}
