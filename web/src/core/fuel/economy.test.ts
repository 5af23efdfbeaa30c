import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { economyOf, economyStretches, fillsInRange, MILLILITRES_PER_GALLON, type EconomyFill } from './economy';

let made = 0;
function fill(date: string, odometer: number | null, quantity: number, cost: number, full = true, unit: EconomyFill['unit'] = 'litres'): EconomyFill {
  made += 1;
  return { id: `f${made}`, createdAt: `2026-01-01T00:00:${String(made).padStart(2, '0')}Z`, date, unit, quantity, cost, odometer, full };
}

describe('economyStretches', () => {
  it('measures between full fills with readings, counting the top-ups in between', () => {
    const first = fill('2026-04-06', 10_000, 50_000, 7_000);
    const topUp = fill('2026-04-09', 10_200, 10_000, 1_400, false);
    const second = fill('2026-04-12', 10_500, 30_000, 4_200);
    const stretches = economyStretches([second, topUp, first]);
    expect(stretches).toEqual([{ fromId: first.id, toId: second.id, unit: 'litres', miles: 500, quantity: 40_000, cost: 5_600 }]);
  });

  it('a part fill never starts or ends a stretch, and a full fill without a reading only adds its fuel', () => {
    const part = fill('2026-04-06', 9_000, 20_000, 2_800, false);
    const first = fill('2026-04-07', 10_000, 50_000, 7_000);
    const unread = fill('2026-04-10', null, 25_000, 3_500);
    const partLater = fill('2026-04-11', 10_400, 5_000, 700, false);
    const second = fill('2026-04-12', 10_600, 20_000, 2_800);
    expect(economyStretches([part, first, unread, partLater, second])).toEqual([{ fromId: first.id, toId: second.id, unit: 'litres', miles: 600, quantity: 50_000, cost: 7_000 }]);
  });

  it('skips a stretch whose reading did not go up, or that mixes litres and kWh, and starts afresh', () => {
    const a = fill('2026-04-06', 10_000, 40_000, 5_600);
    const backwards = fill('2026-04-07', 9_990, 40_000, 5_600);
    const charge = fill('2026-04-08', null, 30_000, 900, false, 'kWh');
    const c = fill('2026-04-09', 10_300, 40_000, 5_600);
    const d = fill('2026-04-10', 10_700, 40_000, 5_600);
    expect(economyStretches([a, backwards, charge, c, d]).map((s) => [s.fromId, s.toId])).toEqual([[c.id, d.id]]);
  });
});

describe('economyOf', () => {
  it('gives miles per UK gallon and pence per mile over every stretch', () => {
    const fills = [fill('2026-04-06', 10_000, 45_000, 6_300), fill('2026-04-13', 10_400, 45_460.9, 6_400), fill('2026-04-20', 10_800, 45_460.9, 6_400)];
    const [litres] = economyOf(fills);
    expect(litres?.miles).toBe(800);
    expect(litres?.milesPerUnit).toBeCloseTo(800 / ((2 * 45_460.9) / MILLILITRES_PER_GALLON), 9);
    expect(litres?.milesPerUnit).toBeCloseTo(40, 9);
    expect(litres?.pencePerMile).toBe(16);
  });

  it('gives miles per kWh for charges', () => {
    const fills = [fill('2026-04-06', 100, 40_000, 1_000, true, 'kWh'), fill('2026-04-08', 280, 60_000, 1_500, true, 'kWh')];
    expect(economyOf(fills)).toEqual([{ unit: 'kWh', stretches: 1, miles: 180, quantity: 60_000, cost: 1_500, milesPerUnit: 3, pencePerMile: 1_500 / 180 }]);
  });

  it('is nothing until two full fills have readings', () => {
    expect(economyOf([])).toEqual([]);
    expect(economyOf([fill('2026-04-06', 100, 40_000, 1_000), fill('2026-04-07', null, 40_000, 1_000)])).toEqual([]);
  });
});

describe('fillsInRange', () => {
  it('counts a tax year’s fills and their cost, its first and last days included', () => {
    const fills = [fill('2026-04-05', 1, 1, 100), fill('2026-04-06', 1, 1, 200), fill('2027-04-05', 1, 1, 300), fill('2027-04-06', 1, 1, 400)];
    expect(fillsInRange(fills, '2026-04-06', '2027-04-05')).toEqual({ count: 2, cost: 500 });
  });
});

const arbitraryFill = fc.record({
  id: fc.uuid(),
  createdAt: fc.constantFrom('2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z'),
  date: fc.constantFrom('2026-04-06', '2026-04-07', '2026-04-08', '2026-04-09'),
  unit: fc.constantFrom<EconomyFill['unit']>('litres', 'kWh'),
  // The server's bounds, and 0 too: the rule must not lean on them to avoid dividing by zero.
  quantity: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 500_000 })),
  cost: fc.integer({ min: 0, max: 200_000 }),
  odometer: fc.option(fc.integer({ min: 0, max: 2_000 }), { nil: null }),
  full: fc.boolean(),
});

describe('the economy rule (property)', () => {
  it('never divides by zero: every figure is finite and positive, whatever the fills', () => {
    fc.assert(
      fc.property(fc.uniqueArray(arbitraryFill, { selector: (f) => f.id, maxLength: 12 }), (fills) => {
        for (const economy of economyOf(fills)) {
          expect(Number.isFinite(economy.milesPerUnit) && economy.milesPerUnit > 0).toBe(true);
          expect(Number.isFinite(economy.pencePerMile) && economy.pencePerMile >= 0).toBe(true);
          expect(economy.miles).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('ignores part fills as ends: a part fill’s reading changes nothing', () => {
    fc.assert(
      fc.property(fc.uniqueArray(arbitraryFill, { selector: (f) => f.id, maxLength: 12 }), fc.array(fc.option(fc.integer({ min: 0, max: 2_000 }), { nil: null }), { minLength: 12, maxLength: 12 }), (fills, readings) => {
        const moved = fills.map((f, i) => (f.full ? f : { ...f, odometer: readings[i] ?? null }));
        expect(economyStretches(moved)).toEqual(economyStretches(fills));
      }),
    );
  });

  it('counts each fill’s fuel and cost in at most one stretch, and only fills after its first end', () => {
    fc.assert(
      fc.property(fc.uniqueArray(arbitraryFill, { selector: (f) => f.id, maxLength: 12 }), (fills) => {
        const stretches = economyStretches(fills);
        const quantity = stretches.reduce((sum, s) => sum + s.quantity, 0);
        const cost = stretches.reduce((sum, s) => sum + s.cost, 0);
        expect(quantity).toBeLessThanOrEqual(fills.reduce((sum, f) => sum + f.quantity, 0));
        expect(cost).toBeLessThanOrEqual(fills.reduce((sum, f) => sum + f.cost, 0));
        for (const s of stretches) {
          const ends = [s.fromId, s.toId].map((id) => fills.find((f) => f.id === id));
          expect(ends.every((end) => end?.full === true && end.odometer !== null)).toBe(true);
        }
      }),
    );
  });
});
