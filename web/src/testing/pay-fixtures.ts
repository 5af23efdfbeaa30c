// Couriers, rate cards and deductions as the device keeps them, for tests that price or net.
// The default courier and its first card have the user's id, as the server makes them.
import { DEFAULT_TIERS, type PayTier } from '@/core/pay/pay';
import { DEFAULT_COURIER, firstCard } from '@/sync/default-courier';
import type { LocalDb } from '@/sync/db';
import type { CourierContent, DeductionContent, LocalCourier, LocalDeduction, LocalRateCard, RateCardContent } from '@/sync/types';

const stamp = '2025-01-01T00:00:00.000Z';
const synced = { createdAt: stamp, updatedAt: stamp, deleted: 0 as const, syncState: 'synced' as const, server: null };

export function makeCourier(id: string, content: Partial<CourierContent> = {}): LocalCourier {
  return { id, ...DEFAULT_COURIER, ...content, ...synced };
}

/** A card paying per stop by `tiers` (the spec's default) from the start; override any rule. */
export function makeRateCard(id: string, courierId: string, content: Partial<RateCardContent> = {}): LocalRateCard {
  return { id, ...firstCard(courierId, DEFAULT_TIERS), ...content, ...synced };
}

export function makeDeduction(id: string, courierId: string, content: Partial<DeductionContent> = {}): LocalDeduction {
  return { id, courierId, label: 'Van hire', amount: 20_000, repeat: 'weekly', from: '2025-01-06', to: null, purpose: null, vehicleId: null, ...content, ...synced };
}

/** What every account has once the server's records arrive: the default courier and its first card. */
export async function seedDefaultCourier(db: LocalDb, tiers: readonly PayTier[] = DEFAULT_TIERS): Promise<void> {
  await db.couriers.put(makeCourier(db.userId));
  await db.rateCards.put(makeRateCard(db.userId, db.userId, { perStop: tiers.map((tier) => ({ ...tier })) }));
}
