import { describe, expect, it } from 'vitest';
import { DEFAULT_TIERS, payFor, type PayTier } from './pay';

describe('payFor', () => {
  it('pays the default tiers at £1.98 up to 110 stops, then £1.48 (same cases as the server)', () => {
    expect(payFor(DEFAULT_TIERS, 0)).toBe(0);
    expect(payFor(DEFAULT_TIERS, 1)).toBe(198);
    expect(payFor(DEFAULT_TIERS, 100)).toBe(19_800);
    expect(payFor(DEFAULT_TIERS, 110)).toBe(21_780);
    expect(payFor(DEFAULT_TIERS, 111)).toBe(21_928);
    expect(payFor(DEFAULT_TIERS, 150)).toBe(21_780 + 40 * 148);
  });

  it('walks three tiers', () => {
    const tiers: PayTier[] = [{ stopCount: 100, rate: 200 }, { stopCount: 120, rate: 175 }, { rate: 150 }];
    expect(payFor(tiers, 130)).toBe(100 * 200 + 20 * 175 + 10 * 150);
    expect(payFor(tiers, 110)).toBe(100 * 200 + 10 * 175);
  });

  it('lets a stop count that does not rise cover nothing, never paying a stop twice', () => {
    const tiers: PayTier[] = [{ stopCount: 100, rate: 200 }, { stopCount: 50, rate: 999 }, { stopCount: 100, rate: 777 }, { rate: 150 }];
    expect(payFor(tiers, 40)).toBe(40 * 200);
    expect(payFor(tiers, 130)).toBe(100 * 200 + 30 * 150);
  });

  it('pays each stop at the rate of the first tier reaching it (every small tier list, exhaustively)', () => {
    // An independent statement of the rule: stop n is paid by the first tier whose stop count
    // is at least n (the final tier reaches every stop).
    const reference = (tiers: PayTier[], stops: number) => {
      let paid = 0;
      for (let n = 1; n <= stops; n += 1) paid += tiers.find((t) => (t.stopCount ?? Infinity) >= n)!.rate;
      return paid;
    };
    const counts = [1, 5, 10, 20];
    const lists: number[][] = [[]];
    for (let length = 1; length <= 3; length += 1) {
      for (const prefix of lists.filter((l) => l.length === length - 1)) for (const c of counts) lists.push([...prefix, c]);
    }
    for (const list of lists.filter((l) => l.length > 0)) {
      const tiers: PayTier[] = [...list.map((stopCount, i) => ({ stopCount, rate: [211, 173, 97][i]! })), { rate: 53 }];
      for (let stops = 0; stops <= 30; stops += 1) {
        expect(payFor(tiers, stops), `${JSON.stringify(tiers)} at ${stops} stops`).toBe(reference(tiers, stops));
      }
    }
  });

  it('stays in whole pence and never decreases as stops grow', () => {
    const tiers: PayTier[] = [{ stopCount: 7, rate: 133 }, { stopCount: 3, rate: 1 }, { stopCount: 20, rate: 97 }, { rate: 251 }];
    let previous = 0;
    for (let stops = 0; stops <= 1000; stops += 1) {
      const pay = payFor(tiers, stops);
      expect(Number.isInteger(pay)).toBe(true);
      expect(pay).toBeGreaterThanOrEqual(previous);
      expect(pay).toBeLessThanOrEqual(251 * stops);
      previous = pay;
    }
  });
});
