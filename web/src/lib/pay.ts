// Tiered pay, in integer pence. Mirrors crates/domain/src/tiers.rs `pay_for` exactly, so the
// total a device fixes at save time is the one the server would compute.

export interface PayTier {
  /** Stops up to (inclusive); absent on the final tier, which pays every stop above. */
  stopCount?: number;
  /** Pence per stop. */
  rate: number;
}

/** Spec §3: 110 stops at £1.98, then £1.48. */
export const DEFAULT_TIERS: readonly PayTier[] = Object.freeze([{ stopCount: 110, rate: 198 }, { rate: 148 }]);

/**
 * Pay for a day of `stops`: tier i pays its rate for the stops above what earlier tiers
 * covered, up to its own stop count; a tier without a stop count pays the rest. A stop count
 * that does not rise covers nothing, so a half-edited list never pays a stop twice.
 */
export function payFor(tiers: readonly PayTier[], stops: number): number {
  let paid = 0;
  let covered = 0;
  for (const tier of tiers) {
    const upper = Math.min(tier.stopCount ?? Number.POSITIVE_INFINITY, stops);
    if (upper > covered) {
      paid += tier.rate * (upper - covered);
      covered = upper;
    }
  }
  return paid;
}
