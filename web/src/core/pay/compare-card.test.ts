// The figures of "what would this period have paid" against pence worked out by hand here (not
// with pay.ts), for a per-stop card with bands, a per-parcel card with a cap, a per-hour card
// and a day-rate card; and fast-check properties (its seed is printed on a failure).
import { makeEntry } from '@/testing/sync-handle';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priceWithCard } from './pay';
import type { RateCardContent } from '@/sync/types';
import { compareCard, withPerStopChange, type ComparedEntry } from './compare-card';

const COURIER = 'courier-a';
const blank: RateCardContent = {
  courierId: COURIER,
  label: '',
  validFrom: '2025-01-01',
  perStop: null,
  perParcel: null,
  parcelCapPerStop: null,
  perCollection: null,
  perFailed: null,
  dayRate: null,
  hourly: null,
  peaks: [],
  bandRates: null,
};
const day = (content: Partial<ComparedEntry>): ComparedEntry => makeEntry({ courierId: COURIER, extra: 0, parcels: null, collections: null, failed: null, startTime: null, finishTime: null, ...content });

describe('compareCard, checked by hand', () => {
  // Three logged days, each paid £150.00 as saved.
  const days = [
    day({ date: '2025-03-03', stops: 120, parcels: 300, startTime: '08:00', finishTime: '17:30', total: 15_000 }),
    day({ date: '2025-03-04', stops: 90, parcels: 100, startTime: '09:00', finishTime: '16:00', total: 15_000, extra: 250 }),
    day({ date: '2025-03-05', stops: 100, parcels: 120, total: 15_000 }),
  ];

  it('per stop with two bands: 110 at £1.98, the rest at £1.48', () => {
    const card = { ...blank, perStop: [{ stopCount: 110, rate: 198 }, { rate: 148 }] };
    const result = compareCard(days, COURIER, '2025-03-01', '2025-03-31', card);
    // 110×198 + 10×148 = 21,780 + 1,480; 90×198 + 250 extra; 100×198.
    expect(result.days.map((d) => d.wouldPay)).toEqual([23_260, 18_070, 19_800]);
    expect(result.days.map((d) => d.difference)).toEqual([8_260, 3_070, 4_800]);
    expect(result.difference).toBe(16_130);
    // Timed days: 9 h 30 + 7 h = 990 minutes; paid 30,000 → 30,000×60/990 = 1,818.18 → 1,818;
    // would pay 41,330 → 41,330×60/990 = 2,504.85 → 2,505.
    expect(result.minutes).toBe(990);
    expect([result.perHourPaid, result.perHourWouldPay]).toEqual([1_818, 2_505]);
  });

  it('per parcel at 62p, capped at 2 a stop', () => {
    const card = { ...blank, perParcel: 62, parcelCapPerStop: 2 };
    const result = compareCard(days, COURIER, '2025-03-01', '2025-03-31', card);
    // 300 parcels capped at 240 → 14,880; 100 → 6,200 + 250; 120 → 7,440.
    expect(result.days.map((d) => d.wouldPay)).toEqual([14_880, 6_450, 7_440]);
    expect(result.wouldPay).toBe(28_770);
    expect(result.difference).toBe(28_770 - 45_000);
  });

  it('per hour at £14.20 and a day rate of £110', () => {
    const hourly = compareCard(days, COURIER, '2025-03-01', '2025-03-31', { ...blank, hourly: 1_420 });
    // 9.5 h → 13,490; 7 h → 9,940 + 250; no times → 0.
    expect(hourly.days.map((d) => d.wouldPay)).toEqual([13_490, 10_190, 0]);
    const dayRate = compareCard(days, COURIER, '2025-03-01', '2025-03-31', { ...blank, dayRate: 11_000 });
    expect(dayRate.days.map((d) => d.wouldPay)).toEqual([11_000, 11_250, 11_000]);
    expect(dayRate.difference).toBe(-11_750);
  });

  it('a 65p cut per stop: the period, another courier and deleted days left out', () => {
    const card = { ...blank, perStop: [{ stopCount: 110, rate: 198 }, { rate: 148 }] };
    const cut = withPerStopChange(card, -65);
    expect(cut.perStop).toEqual([{ stopCount: 110, rate: 133 }, { rate: 83 }]);
    const others = [...days, day({ date: '2025-03-06', stops: 100, courierId: 'courier-b' }), day({ date: '2025-03-07', stops: 100, deleted: 1 }), day({ date: '2025-04-01', stops: 100 })];
    const paidUnderCard = others.map((entry) => ({ ...entry, total: priceWithCard(card, entry) }));
    const result = compareCard(paidUnderCard, COURIER, '2025-03-01', '2025-03-31', cut);
    // 65p on each of 120, 90 and 100 stops.
    expect(result.days.map((d) => d.difference)).toEqual([-7_800, -5_850, -6_500]);
    expect(result.difference).toBe(-20_150);
  });
});

const cardArb: fc.Arbitrary<RateCardContent> = fc.record({
  courierId: fc.constant(COURIER),
  label: fc.constant(''),
  validFrom: fc.constant('2025-01-01'),
  perStop: fc.option(
    fc.tuple(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 300 })).map(([count, first, rest]) => [{ stopCount: count, rate: first }, { rate: rest }]),
  ),
  perParcel: fc.option(fc.integer({ min: 0, max: 200 })),
  parcelCapPerStop: fc.option(fc.integer({ min: 1, max: 5 })),
  perCollection: fc.option(fc.integer({ min: 0, max: 200 })),
  perFailed: fc.option(fc.integer({ min: 0, max: 200 })),
  dayRate: fc.option(fc.integer({ min: 0, max: 20_000 })),
  hourly: fc.option(fc.integer({ min: 0, max: 3_000 })),
  peaks: fc.constant([]),
  bandRates: fc.constant(null),
});
const time = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
const dayArb = fc.record({
  date: fc.integer({ min: 1, max: 28 }).map((d) => `2025-03-${String(d).padStart(2, '0')}`),
  stops: fc.integer({ min: 0, max: 300 }),
  parcels: fc.option(fc.integer({ min: 0, max: 600 })),
  collections: fc.option(fc.integer({ min: 0, max: 30 })),
  failed: fc.option(fc.integer({ min: 0, max: 30 })),
  extra: fc.integer({ min: 0, max: 5_000 }),
  times: fc.option(fc.tuple(time, time)),
  total: fc.integer({ min: 0, max: 60_000 }),
});
type GeneratedDay = typeof dayArb extends fc.Arbitrary<infer T> ? T : never;
const toEntries = (generated: GeneratedDay[]) => generated.map(({ times, ...rest }) => day({ ...rest, startTime: times?.[0] ?? null, finishTime: times?.[1] ?? null }));

describe('compareCard properties', () => {
  it('re-pricing days under the card that priced them changes nothing', () => {
    fc.assert(
      fc.property(cardArb, fc.array(dayArb, { maxLength: 20 }), (card, generated) => {
        const entries = toEntries(generated).map((entry) => ({ ...entry, total: priceWithCard(card, entry) }));
        const result = compareCard(entries, COURIER, '2025-03-01', '2025-03-31', card);
        expect(result.difference).toBe(0);
        expect(result.days.every((d) => d.difference === 0)).toBe(true);
        expect(result.perHourWouldPay).toBe(result.perHourPaid);
      }),
    );
  });

  it('the total is the sum of the per-day differences, and paid plus difference is what it would pay', () => {
    fc.assert(
      fc.property(cardArb, fc.array(dayArb, { maxLength: 20 }), (card, generated) => {
        const result = compareCard(toEntries(generated), COURIER, '2025-03-01', '2025-03-31', card);
        expect(result.difference).toBe(result.days.reduce((sum, d) => sum + d.difference, 0));
        expect(result.paid + result.difference).toBe(result.wouldPay);
        expect(result.days).toHaveLength(generated.length);
      }),
    );
  });
});
