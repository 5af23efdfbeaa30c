// What the user can do with a change the server would not take. Each settles the outbox item
// on the device, then nudges the engine so the result is pushed (or the badge clears) at once.
import type { SyncHandle } from '@/sync/coordinator';
import { discardParked, retryParked } from '@/sync/outbox';

export async function retryChange(handle: SyncHandle, seq: number): Promise<void> {
  await retryParked(handle.db, seq);
}

export async function discardChange(handle: SyncHandle, seq: number): Promise<void> {
  await discardParked(handle.db, seq);
}
