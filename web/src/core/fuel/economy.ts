// A vehicle's economy from its fuel fills, by the full-to-full rule: the tank is full after a
// full fill, so the fuel put in from the next fill up to the next full fill is exactly what the
// miles between the two burnt. Part fills (top-ups) are counted in the fuel of the stretch they
// fall in but never start or end one. A fill is a log, not an expense: nothing here is money
// the driver claims (that is an expense or the mileage rate), so no tax figure reads it.
import type { FuelFillContent } from '@/sync/types';

/** One UK (imperial) gallon in millilitres: miles per gallon in the UK are these gallons. */
export const MILLILITRES_PER_GALLON = 4_546.09;

/** The rule as the Fuel view states it. */
export const ECONOMY_RULE =
  'Economy is worked out between two full fills in a row that both have an odometer reading: the miles between them, over the fuel and cost put in after the first (part fills in between included). A part fill never starts or ends a stretch.';

export type FuelUnit = FuelFillContent['unit'];

/** What the rule reads of a fill (a LocalFuelFill fits). */
export type EconomyFill = Pick<FuelFillContent, 'date' | 'unit' | 'quantity' | 'cost' | 'odometer' | 'full'> & { id: string; createdAt: string };

/** Miles between two full fills with readings, and the fuel and pence that covered them. */
export interface Stretch {
  fromId: string;
  toId: string;
  unit: FuelUnit;
  miles: number;
  /** Millilitres or watt-hours. */
  quantity: number;
  /** Pence. */
  cost: number;
}

/** Fills in the order they happened: by day, then as they were logged. */
export function inFillOrder<F extends EconomyFill>(fills: readonly F[]): F[] {
  return [...fills].sort((a, b) => (a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The measured stretches of one vehicle's fills. A stretch is skipped (nothing divided) when
 * the second reading is not above the first, when it holds no fuel, or when it mixes litres
 * and kWh; the next full fill with a reading starts afresh either way.
 */
export function economyStretches(fills: readonly EconomyFill[]): Stretch[] {
  const stretches: Stretch[] = [];
  let anchor: (EconomyFill & { odometer: number }) | null = null;
  let quantity = 0;
  let cost = 0;
  let mixed = false;
  for (const fill of inFillOrder(fills)) {
    if (anchor) {
      quantity += fill.quantity;
      cost += fill.cost;
      mixed ||= fill.unit !== anchor.unit;
    }
    if (!fill.full || fill.odometer === null) continue;
    if (anchor && !mixed && fill.odometer > anchor.odometer && quantity > 0) {
      stretches.push({ fromId: anchor.id, toId: fill.id, unit: anchor.unit, miles: fill.odometer - anchor.odometer, quantity, cost });
    }
    anchor = { ...fill, odometer: fill.odometer };
    quantity = 0;
    cost = 0;
    mixed = false;
  }
  return stretches;
}

/** A vehicle's economy in one unit over its measured stretches. */
export interface Economy {
  unit: FuelUnit;
  stretches: number;
  miles: number;
  quantity: number;
  cost: number;
  /** Miles per UK gallon (litres) or miles per kWh. */
  milesPerUnit: number;
  pencePerMile: number;
}

/** The economy per unit (a vehicle logged in both has two), from the stretches that measured it. */
export function economyOf(fills: readonly EconomyFill[]): Economy[] {
  const byUnit = new Map<FuelUnit, Stretch[]>();
  for (const stretch of economyStretches(fills)) byUnit.set(stretch.unit, [...(byUnit.get(stretch.unit) ?? []), stretch]);
  return [...byUnit].map(([unit, stretches]) => {
    const miles = stretches.reduce((sum, s) => sum + s.miles, 0);
    const quantity = stretches.reduce((sum, s) => sum + s.quantity, 0);
    const cost = stretches.reduce((sum, s) => sum + s.cost, 0);
    const perUnit = unit === 'litres' ? quantity / MILLILITRES_PER_GALLON : quantity / 1_000;
    return { unit, stretches: stretches.length, miles, quantity, cost, milesPerUnit: miles / perUnit, pencePerMile: cost / miles };
  });
}

/** The fills of a tax year (from/to inclusive, YYYY-MM-DD) and what they cost, in pence. */
export function fillsInRange<F extends Pick<EconomyFill, 'date' | 'cost'>>(fills: readonly F[], from: string, to: string): { count: number; cost: number } {
  const inRange = fills.filter((fill) => fill.date >= from && fill.date <= to);
  return { count: inRange.length, cost: inRange.reduce((sum, fill) => sum + fill.cost, 0) };
}
