// What a driver does with evidence: keep an item (a photo with it, in one transaction: the
// receipt-photo pipeline then uploads it once), remove it, bring it back. Each is one call to
// the generic writes, which nudge sync themselves.
import { deleteRecord, undoDelete } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import { saveWithPhotos, type NewReceipt } from '@/sync/receipts';
import type { EvidenceContent, LocalEvidence } from '@/sync/types';

export async function saveEvidence(handle: SyncHandle, content: EvidenceContent, photo: NewReceipt | null, id?: string): Promise<LocalEvidence> {
  const names = content.photoId === null ? [] : [content.photoId];
  return saveWithPhotos(handle.db, 'evidence', content, id, names, photo ? [photo] : [], []);
}

export async function deleteEvidence(handle: SyncHandle, id: string): Promise<void> {
  await deleteRecord(handle.db, 'evidence', id);
}

export async function restoreEvidence(handle: SyncHandle, before: LocalEvidence): Promise<void> {
  await undoDelete(handle.db, 'evidence', before);
}
