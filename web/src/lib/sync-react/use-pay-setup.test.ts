import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TIERS, priceDay } from '@/core/pay/pay';
import { LocalDb } from '@/sync/db';
import { DEFAULT_COURIER } from '@/sync/default-courier';
import { makeProfileData } from '@/testing/fixtures';
import { readPaySetup } from './use-pay-setup';

const userId = '0190a6e2-7c1d-7000-8000-0000000000a7';
let db: LocalDb;

afterEach(async () => {
  db.close();
  await db.delete();
});

const day = { date: '2025-03-21', stops: 120, extra: 0, parcels: null, collections: null, failed: null, startTime: null, finishTime: null };

describe('readPaySetup before the first pull', () => {
  it('prices with the default courier and first card the server made, under their ids', async () => {
    db = new LocalDb(`pay-setup-${crypto.randomUUID()}`, userId);
    const setup = await readPaySetup(db);
    expect(setup.couriers.map((c) => [c.id, c.name])).toEqual([[userId, DEFAULT_COURIER.name]]);
    expect(setup.cards.map((c) => [c.id, c.courierId, c.perStop])).toEqual([[userId, userId, DEFAULT_TIERS]]);
    expect(priceDay(setup.cards, userId, day)).toEqual({ total: 21_780 + 10 * 148, rateCardId: userId });
  });

  it("uses the profile's tiers when the profile came first, as the server's first card holds them", async () => {
    db = new LocalDb(`pay-setup-${crypto.randomUUID()}`, userId);
    const tiers = [{ stopCount: 100, rate: 200 }, { rate: 150 }];
    await db.docs.put({ kind: 'profile', data: makeProfileData({ paymentConfig: { tiers } }), patch: {}, server: null, version: 1, syncState: 'synced' });
    expect(priceDay((await readPaySetup(db)).cards, userId, day).total).toBe(100 * 200 + 20 * 150);
  });

  it('adds nothing once the pull has brought the default courier, even deleted', async () => {
    db = new LocalDb(`pay-setup-${crypto.randomUUID()}`, userId);
    const stamps = { createdAt: 'c', updatedAt: 'u', syncState: 'synced', server: null } as const;
    await db.couriers.put({ ...DEFAULT_COURIER, id: userId, ...stamps, deleted: 1 });
    const setup = await readPaySetup(db);
    expect(setup.couriers).toEqual([]);
    expect(setup.cards).toEqual([]);
  });
});
