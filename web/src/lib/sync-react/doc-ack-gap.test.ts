// When the server acknowledges a profile or settings change and the pull that would bring it
// back fails (signal lost right after the push), the device must keep showing — and pricing
// entries with — what the driver saved, not fall back to the older copy or the defaults.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { makeUser } from '@/testing/fixtures';
import type { SyncApi } from '@/sync/api';
import { updateProfile } from '@/sync/commands';
import { LocalDb } from '@/sync/db';
import { SyncEngine } from '@/sync/engine';
import { profileView } from './use-profile';

const tiers = [{ stopCount: 90, rate: 210 }, { rate: 160 }];

function engineWhosePullFails(db: LocalDb): SyncEngine {
  const api: SyncApi = {
    push: async (_clientId, items) => items.map((item) => ({ id: item.mutationId, status: 'applied' as const })),
    pull: async () => {
      throw new TypeError('Failed to fetch'); // the signal went right after the push
    },
  };
  return new SyncEngine({ db, api, isOnline: () => true, setTimer: () => 0 as unknown as ReturnType<typeof setTimeout>, clearTimer: () => undefined });
}

describe('a profile change the server has acknowledged, before the pull', () => {
  it('still prices entries with the tiers the driver saved', async () => {
    const db = new LocalDb(`ack-gap-${crypto.randomUUID()}`, crypto.randomUUID());
    await updateProfile(db, { paymentConfig: { tiers } });
    expect(profileView(await db.getDoc('profile'), makeUser()).tiers).toEqual(tiers);

    await engineWhosePullFails(db).sync();

    expect(await db.outbox.count()).toBe(0); // acknowledged
    expect(profileView(await db.getDoc('profile'), makeUser()).tiers).toEqual(tiers);
  });
});
