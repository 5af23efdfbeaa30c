import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIERS, payFor, type PayTier } from './pay';
import {
  addTier,
  canAddTier,
  canRemoveTier,
  exampleStops,
  idleTiers,
  MAX_STOP_COUNT,
  MAX_TIERS,
  MIN_RATE_PENCE,
  MIN_TIERS,
  parseRate,
  parseStopCount,
  payLines,
  removeTier,
  sameTiers,
  toStored,
  withRate,
  withStopCount,
} from './tier-rules';

const three: PayTier[] = [{ stopCount: 110, rate: 198 }, { stopCount: 130, rate: 173 }, { rate: 148 }];

describe('addTier', () => {
  it('inserts before the final tier: previous stop count + 20, rate the average (same cases as the server)', () => {
    expect(addTier(DEFAULT_TIERS)).toEqual(three);
    // 173 and 148 average 160.5: rounded to the nearest penny, halves up.
    expect(addTier(three)).toEqual([...three.slice(0, 2), { stopCount: 150, rate: 161 }, { rate: 148 }]);
  });

  it('rounds to the nearest penny both ways, and keeps whole averages', () => {
    expect(addTier([{ stopCount: 10, rate: 100 }, { rate: 50 }])[1]).toEqual({ stopCount: 30, rate: 75 });
    expect(addTier([{ stopCount: 10, rate: 101 }, { rate: 50 }])[1]?.rate).toBe(76); // 75.5
    expect(addTier([{ stopCount: 10, rate: 1 }, { rate: 2 }])[1]?.rate).toBe(2); // 1.5
    expect(addTier([{ stopCount: 10, rate: 1 }, { rate: 1 }])[1]?.rate).toBe(1);
  });

  it('never goes above 1000 stops and stops at 20 tiers, as the server does', () => {
    expect(addTier([{ stopCount: 990, rate: 100 }, { rate: 50 }])[1]?.stopCount).toBe(1000);
    let tiers: readonly PayTier[] = DEFAULT_TIERS;
    while (canAddTier(tiers)) tiers = addTier(tiers);
    expect(tiers).toHaveLength(MAX_TIERS);
    expect(addTier(tiers)).toEqual(tiers);
  });

  it('does not change the list it is given', () => {
    const before = structuredClone(three);
    addTier(three);
    expect(three).toEqual(before);
  });
});

describe('removeTier', () => {
  it('keeps at least 2 tiers and never removes the final one', () => {
    expect(canRemoveTier(DEFAULT_TIERS, 0)).toBe(false);
    expect(removeTier(DEFAULT_TIERS, 0)).toEqual(DEFAULT_TIERS);
    expect(canRemoveTier(three, 2)).toBe(false);
    expect(removeTier(three, 2)).toEqual(three);
    expect(canRemoveTier(three, 0)).toBe(true);
    expect(removeTier(three, 1)).toEqual(DEFAULT_TIERS);
    expect(removeTier(three, 0)).toEqual([{ stopCount: 130, rate: 173 }, { rate: 148 }]);
    expect(canRemoveTier(three, -1)).toBe(false);
  });
});

describe('validation', () => {
  it.each([
    ['1.98', 198],
    ['0.01', 1],
    ['2', 200],
    ['1.5', 150],
    ['100', 10_000],
  ])('reads rate %s as %i pence', (input, pence) => expect(parseRate(input)).toBe(pence));

  it.each(['0', '0.00', '0.001', '-1', '', 'abc', '100.01', '1e2'])('refuses rate "%s"', (input) => {
    expect(parseRate(input)).toBeNull();
  });

  it.each([
    ['1', 1],
    ['110', 110],
    ['1000', 1000],
  ])('reads stop count %s', (input, count) => expect(parseStopCount(input)).toBe(count));

  it.each(['0', '-5', '1.5', '', '1001', 'x'])('refuses stop count "%s"', (input) => expect(parseStopCount(input)).toBeNull());

  it('ignores invalid input silently, keeping the old value', () => {
    expect(withRate(three, 0, '0')).toBe(three);
    expect(withRate(three, 0, '')).toBe(three);
    expect(withStopCount(three, 1, '0')).toBe(three);
    expect(withStopCount(three, 1, '12.5')).toBe(three);
    expect(withRate(three, 0, '2.05')[0]).toEqual({ stopCount: 110, rate: 205 });
    expect(withStopCount(three, 1, '140')[1]).toEqual({ stopCount: 140, rate: 173 });
  });

  it('gives the final tier no stop count', () => {
    expect(withStopCount(three, 2, '500')).toBe(three);
    expect(toStored([{ stopCount: 10, rate: 1 }, { stopCount: 99, rate: 2 }])).toEqual([{ stopCount: 10, rate: 1 }, { rate: 2 }]);
  });
});

describe('idleTiers and sameTiers', () => {
  it('finds tiers whose stop count does not rise', () => {
    expect(idleTiers(three)).toEqual([]);
    expect(idleTiers([{ stopCount: 100, rate: 1 }, { stopCount: 100, rate: 2 }, { stopCount: 50, rate: 3 }, { stopCount: 120, rate: 4 }, { rate: 5 }])).toEqual([1, 2]);
  });

  it('compares lists by value', () => {
    expect(sameTiers(three, structuredClone(three))).toBe(true);
    expect(sameTiers(three, DEFAULT_TIERS)).toBe(false);
    expect(sameTiers(three, withRate(three, 2, '1.49'))).toBe(false);
  });
});

describe('the worked example', () => {
  it('is a 130-stop day for the default tiers, paid 110 × £1.98 + 20 × £1.48', () => {
    expect(exampleStops(DEFAULT_TIERS)).toBe(130);
    expect(payLines(DEFAULT_TIERS, 130)).toEqual([
      { stops: 110, rate: 198 },
      { stops: 20, rate: 148 },
    ]);
    expect(exampleStops(three)).toBe(150);
    expect(exampleStops([{ stopCount: 995, rate: 1 }, { rate: 2 }])).toBe(1000);
  });

  it('adds up to the pay maths for every day', () => {
    const tiers: PayTier[] = [{ stopCount: 50, rate: 210 }, { stopCount: 40, rate: 999 }, { stopCount: 90, rate: 180 }, { rate: 150 }];
    for (let stops = 0; stops <= 200; stops += 1) {
      expect(payLines(tiers, stops).reduce((sum, line) => sum + line.stops * line.rate, 0)).toBe(payFor(tiers, stops));
    }
  });
});

describe('tier rules (properties)', () => {
  const tierLists = fc
    .tuple(fc.array(fc.record({ stopCount: fc.integer({ min: 1, max: 1_000 }), rate: fc.integer({ min: 1, max: 10_000 }) }), { minLength: 1, maxLength: 19 }), fc.integer({ min: 1, max: 10_000 }))
    .map(([counted, finalRate]): PayTier[] => [...counted, { rate: finalRate }]);

  it('adds a tier before the final one: previous stop count + 20, the average rate, never past 20 tiers', () => {
    fc.assert(
      fc.property(tierLists, (tiers) => {
        const added = addTier(tiers);
        if (tiers.length >= MAX_TIERS) return expect(added).toEqual(tiers);
        const previous = tiers.at(-2)!;
        const last = tiers.at(-1)!;
        expect(added).toHaveLength(tiers.length + 1);
        expect(added.at(-1)).toEqual(last);
        expect(added.slice(0, -2)).toEqual(tiers.slice(0, -1));
        const inserted = added.at(-2)!;
        expect(inserted.stopCount).toBe(Math.min(previous.stopCount! + 20, MAX_STOP_COUNT));
        // The average to the nearest penny, halves up: within half a penny of the exact mean.
        expect(Math.abs(inserted.rate - (previous.rate + last.rate) / 2)).toBeLessThanOrEqual(0.5);
        expect(inserted.rate).toBeGreaterThanOrEqual(MIN_RATE_PENCE);
      }),
    );
  });

  it('removes only while more than 2 tiers remain, and never the final tier', () => {
    fc.assert(
      fc.property(tierLists, fc.integer({ min: -1, max: 21 }), (tiers, index) => {
        const removed = removeTier(tiers, index);
        const allowed = tiers.length > MIN_TIERS && index >= 0 && index < tiers.length - 1;
        expect(canRemoveTier(tiers, index)).toBe(allowed);
        expect(removed).toHaveLength(allowed ? tiers.length - 1 : tiers.length);
        expect(removed.at(-1)).toEqual(tiers.at(-1));
        expect(removed.length).toBeGreaterThanOrEqual(Math.min(tiers.length, MIN_TIERS));
      }),
    );
  });

  it('ignores a rate below £0.01 or a stop count below 1, and any input that is not a number', () => {
    fc.assert(
      fc.property(tierLists, fc.string(), fc.integer({ min: -5, max: 0 }), (tiers, junk, low) => {
        expect(withRate(tiers, 0, String(low / 100))).toBe(tiers);
        expect(withStopCount(tiers, 0, String(low))).toBe(tiers);
        if (parseRate(junk) === null) expect(withRate(tiers, 0, junk)).toBe(tiers);
        if (parseStopCount(junk) === null) expect(withStopCount(tiers, 0, junk)).toBe(tiers);
      }),
    );
  });
});
