// The payment settings' editing rules (spec §4 and §5, constants §9), pure and in integer
// pence. The limits are the server's (the contract's rate card bounds, from
// crates/domain/src/tiers.rs, which refuses a list outside them), so a list edited here is
// always one it accepts; adding and removing a tier happen only here.
import { parsePounds } from '@/core/money/money';
import { BOUNDS } from '@/sync/contract.generated';
import type { PayTier } from './pay';

/** Spec §9: a new tier sits 20 stops above the one before it. */
export const NEW_TIER_STOP_INCREMENT = 20;
/**
 * How many tiers a list has, a tier's rate in pence (at most £100 a stop: only a typo goes
 * above it) and a tier's stop count.
 */
export const {
  minTiers: MIN_TIERS,
  maxTiers: MAX_TIERS,
  minRatePence: MIN_RATE_PENCE,
  maxRatePence: MAX_RATE_PENCE,
  minStopCount: MIN_STOP_COUNT,
  maxStopCount: MAX_STOP_COUNT,
} = BOUNDS.rateCard;

export function canAddTier(tiers: readonly PayTier[]): boolean {
  return tiers.length >= MIN_TIERS && tiers.length < MAX_TIERS;
}

/**
 * Inserts a tier before the final one: the previous tier's stop count + 20, and the average
 * of the previous and final rates rounded to the nearest penny (halves up). Unchanged when
 * the list is full.
 */
export function addTier(tiers: readonly PayTier[]): PayTier[] {
  if (!canAddTier(tiers)) return [...tiers];
  const last = tiers.length - 1;
  const previous = tiers[last - 1]!;
  const finalRate = tiers[last]!.rate;
  const stopCount = Math.min((previous.stopCount ?? 0) + NEW_TIER_STOP_INCREMENT, MAX_STOP_COUNT);
  const rate = Math.floor((previous.rate + finalRate + 1) / 2);
  return [...tiers.slice(0, last), { stopCount, rate }, tiers[last]!];
}

/** Spec: only while more than 2 tiers exist, and never the final tier. */
export function canRemoveTier(tiers: readonly PayTier[], index: number): boolean {
  return tiers.length > MIN_TIERS && index >= 0 && index < tiers.length - 1;
}

export function removeTier(tiers: readonly PayTier[], index: number): PayTier[] {
  if (!canRemoveTier(tiers, index)) return [...tiers];
  return tiers.filter((_, i) => i !== index);
}

/** A rate typed in pounds → pence, or null when it is not £0.01–£100.00 in whole pence. */
export function parseRate(input: string): number | null {
  const pence = parsePounds(input);
  return pence !== null && pence >= MIN_RATE_PENCE && pence <= MAX_RATE_PENCE ? pence : null;
}

/** A stop count → a whole number from 1 to 1000, or null. */
export function parseStopCount(input: string): number | null {
  const trimmed = input.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const count = Number(trimmed);
  return count >= MIN_STOP_COUNT && count <= MAX_STOP_COUNT ? count : null;
}

/** Spec §5: invalid input is silently ignored and the old value is kept. */
export function withRate(tiers: readonly PayTier[], index: number, input: string): readonly PayTier[] {
  const rate = parseRate(input);
  if (rate === null || !tiers[index] || tiers[index].rate === rate) return tiers;
  return tiers.map((tier, i) => (i === index ? { ...tier, rate } : tier));
}

export function withStopCount(tiers: readonly PayTier[], index: number, input: string): readonly PayTier[] {
  const stopCount = parseStopCount(input);
  // The final tier has no stop count: it pays every stop above the others.
  if (stopCount === null || index >= tiers.length - 1 || !tiers[index] || tiers[index].stopCount === stopCount) return tiers;
  return tiers.map((tier, i) => (i === index ? { ...tier, stopCount } : tier));
}

/**
 * Tiers whose stop count does not rise above the one before cover no stops. Allowed (the pay
 * maths ignore them, as the server's do), but worth telling the driver. Returns their indexes.
 */
export function idleTiers(tiers: readonly PayTier[]): number[] {
  const idle: number[] = [];
  let covered = 0;
  tiers.forEach((tier, i) => {
    if (tier.stopCount === undefined) return;
    if (tier.stopCount <= covered) idle.push(i);
    else covered = tier.stopCount;
  });
  return idle;
}

export function sameTiers(a: readonly PayTier[], b: readonly PayTier[]): boolean {
  return a.length === b.length && a.every((tier, i) => tier.rate === b[i]!.rate && tier.stopCount === b[i]!.stopCount);
}

/** What the server stores: a plain copy, the final tier without a stop count. */
export function toStored(tiers: readonly PayTier[]): PayTier[] {
  const last = tiers.length - 1;
  return tiers.map((tier, i) => (i === last ? { rate: tier.rate } : { stopCount: tier.stopCount, rate: tier.rate }));
}

/** How a day of `stops` is paid, tier by tier: the lines of the worked example. */
export function payLines(tiers: readonly PayTier[], stops: number): { stops: number; rate: number }[] {
  const lines: { stops: number; rate: number }[] = [];
  let covered = 0;
  for (const tier of tiers) {
    const upper = Math.min(tier.stopCount ?? Number.POSITIVE_INFINITY, stops);
    if (upper > covered) {
      lines.push({ stops: upper - covered, rate: tier.rate });
      covered = upper;
    }
  }
  return lines;
}

/** The example day: 20 stops past the highest stop count, so it reaches the final tier (130 by default). */
export function exampleStops(tiers: readonly PayTier[]): number {
  const highest = Math.max(0, ...tiers.map((tier) => tier.stopCount ?? 0));
  return Math.min(highest + NEW_TIER_STOP_INCREMENT, MAX_STOP_COUNT);
}
