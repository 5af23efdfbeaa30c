import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bandPay, cardInForce, DEFAULT_TIERS, payFor, priceDay, priceWithCard, workedMinutes, type IdentifiedCard, type PayInputs, type PayTier } from './pay';
import { addDays } from '@/lib/week';

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

const card = (over: Partial<IdentifiedCard> = {}): IdentifiedCard => ({
  id: 'card',
  courierId: 'c1',
  validFrom: '2000-01-01',
  label: '',
  perStop: null,
  perParcel: null,
  parcelCapPerStop: null,
  perCollection: null,
  perFailed: null,
  dayRate: null,
  hourly: null,
  peaks: [],
  bandRates: null,
  ...over,
});
const day = (over: Partial<PayInputs> = {}): PayInputs => ({
  date: '2025-09-10',
  stops: 0,
  extra: 0,
  parcels: null,
  collections: null,
  failed: null,
  startTime: null,
  finishTime: null,
  ...over,
});

describe('priceWithCard', () => {
  it('pays each way a courier pays', () => {
    // DPD-like tiers, plus the driver's extra.
    expect(priceWithCard(card({ perStop: [...DEFAULT_TIERS] }), day({ stops: 120, extra: 500 }))).toBe(21_780 + 10 * 148 + 500);
    // Evri: per parcel, collections paid, refused parcels paid at the parcel rate.
    const evri = card({ perParcel: 55, perCollection: 40, perFailed: 55 });
    expect(priceWithCard(evri, day({ parcels: 200, collections: 12, failed: 3 }))).toBe(200 * 55 + 12 * 40 + 3 * 55);
    // Parcelforce: failed deliveries unpaid.
    expect(priceWithCard(card({ perStop: [...DEFAULT_TIERS], perFailed: 0 }), day({ stops: 10, failed: 4 }))).toBe(1_980);
    // Yodel: at most 3 parcels per stop are paid.
    const yodel = card({ perParcel: 60, parcelCapPerStop: 3 });
    expect(priceWithCard(yodel, day({ stops: 40, parcels: 150 }))).toBe(120 * 60);
    expect(priceWithCard(yodel, day({ stops: 40, parcels: 90 }))).toBe(90 * 60);
    // Amazon DSP route: a day rate.
    expect(priceWithCard(card({ dayRate: 12_500 }), day())).toBe(12_500);
    // Flex block: hourly, to the nearest penny, across midnight too.
    const flex = card({ hourly: 1_350 });
    expect(priceWithCard(flex, day({ startTime: '09:00', finishTime: '13:30' }))).toBe(6_075);
    expect(priceWithCard(flex, day({ startTime: '22:00', finishTime: '01:20' }))).toBe(4_500);
    expect(priceWithCard(card({ hourly: 1_001 }), day({ startTime: '09:00', finishTime: '09:01' }))).toBe(17); // 16.68 → 17
    expect(priceWithCard(flex, day())).toBe(0);
  });

  it('adds a peak: extra per stop, then the multiplier, only on the peak dates', () => {
    const peak = { from: '2025-12-01', to: '2025-12-24', extraPerStop: 20, multiplierPercent: 150 };
    const priced = (date: string) => priceWithCard(card({ perStop: [{ stopCount: 100, rate: 100 }, { rate: 100 }], peaks: [peak] }), day({ date, stops: 10, extra: 99 }));
    expect(priced('2025-11-30')).toBe(1_000 + 99);
    expect(priced('2025-12-01')).toBe((1_000 + 200) * 1.5 + 99);
    expect(priced('2025-12-24')).toBe(1_800 + 99);
    expect(priced('2025-12-25')).toBe(1_099);
  });
});

describe('workedMinutes', () => {
  it('counts a shift, across midnight when it ends before it starts', () => {
    expect(workedMinutes('08:15', '17:45')).toBe(570);
    expect(workedMinutes('23:00', '02:00')).toBe(180);
    expect(workedMinutes('08:00', '08:00')).toBe(0);
    expect(workedMinutes('08:00', null)).toBeNull();
    expect(workedMinutes('25:00', '08:00')).toBeNull();
  });
});

const dates = fc.integer({ min: 0, max: 365 * 5 }).map((n) => addDays('2023-01-01', n));
const cards = fc.array(
  fc.record({ validFrom: dates, rate: fc.integer({ min: 1, max: 400 }), id: fc.uuid() }).map(({ validFrom, rate, id }) => card({ id, validFrom, perStop: [{ stopCount: 50, rate }, { rate }] })),
  { minLength: 1, maxLength: 6 },
);

describe('cardInForce (properties)', () => {
  it('prices a day by the latest card from on or before its date, and by none before the first', () => {
    fc.assert(
      fc.property(cards, dates, (list, date) => {
        const chosen = cardInForce(list, 'c1', date);
        const started = list.filter((c) => c.validFrom <= date);
        if (started.length === 0) {
          expect(chosen).toBeNull();
        } else {
          expect(chosen!.validFrom <= date).toBe(true);
          expect(started.every((c) => c.validFrom <= chosen!.validFrom)).toBe(true);
        }
      }),
    );
  });

  it('a card added from date D never changes the card or price of a day before D', () => {
    fc.assert(
      fc.property(cards, dates, fc.integer({ min: 1, max: 400 }), fc.integer({ min: 0, max: 300 }), (list, from, rate, stops) => {
        const added = card({ id: 'added', validFrom: from, perStop: [{ stopCount: 50, rate }, { rate }] });
        for (let n = 1; n <= 30; n += 1) {
          const date = addDays(from, -n);
          const before = priceDay(list, 'c1', day({ date, stops }));
          const after = priceDay([...list, added], 'c1', day({ date, stops }));
          expect(after).toEqual(before);
        }
      }),
    );
  });

  it('ignores other couriers and deleted cards', () => {
    const list = [card({ id: 'a', validFrom: '2025-01-01' }), card({ id: 'b', validFrom: '2025-06-01', deleted: 1 }), card({ id: 'c', courierId: 'c2', validFrom: '2025-07-01' })];
    expect(cardInForce(list, 'c1', '2025-08-01')?.id).toBe('a');
    expect(cardInForce(list, 'c3', '2025-08-01')).toBeNull();
    expect(priceDay(list, 'c3', day({ stops: 10, extra: 300 }))).toEqual({ total: 300, rateCardId: null });
  });
});

describe('priceWithCard (properties)', () => {
  it('is whole pence, never below the extra, and grows with every count', () => {
    const anyCard = fc.record({
      perParcel: fc.option(fc.integer({ min: 0, max: 10_000 })),
      parcelCapPerStop: fc.option(fc.integer({ min: 1, max: 50 })),
      perCollection: fc.option(fc.integer({ min: 0, max: 10_000 })),
      dayRate: fc.option(fc.integer({ min: 0, max: 100_000 })),
      hourly: fc.option(fc.integer({ min: 0, max: 10_000 })),
      multiplierPercent: fc.option(fc.integer({ min: 100, max: 300 })),
    });
    const counts = fc.record({ stops: fc.nat(1000), parcels: fc.nat(2000), collections: fc.nat(2000), extra: fc.nat(1_000_000) });
    fc.assert(
      fc.property(anyCard, counts, ({ multiplierPercent, ...rules }, inputs) => {
        const c = card({ ...rules, perStop: [...DEFAULT_TIERS], peaks: multiplierPercent ? [{ from: '2025-01-01', to: '2025-12-31', extraPerStop: null, multiplierPercent }] : [] });
        const total = priceWithCard(c, day({ ...inputs, startTime: '08:00', finishTime: '16:20' }));
        expect(Number.isSafeInteger(total)).toBe(true);
        expect(total).toBeGreaterThanOrEqual(inputs.extra);
        const more = priceWithCard(c, day({ ...inputs, stops: inputs.stops + 1, parcels: inputs.parcels + 1, collections: inputs.collections + 1, startTime: '08:00', finishTime: '16:20' }));
        expect(more).toBeGreaterThanOrEqual(total);
      }),
    );
  });
});

describe('pay by size band', () => {
  // Evri-like: 35p a packet, 55p a small parcel, £1.20 a large one; no medium band.
  const evri = card({ bandRates: { packet: 35, small: 55, medium: null, large: 120, extraLarge: null } });
  const bands = (packet: number, small: number, large: number, medium = 0) => ({ packet, small, medium, large, extraLarge: 0 });

  it('pays each band at its rate, a band the card does not price at its pay per parcel, and a day not counted by band per parcel', () => {
    expect(priceWithCard(evri, day({ parcels: 110, bands: bands(60, 40, 10) }))).toBe(60 * 35 + 40 * 55 + 10 * 120);
    expect(priceWithCard(evri, day({ parcels: 2, bands: bands(0, 0, 0, 2) }))).toBe(0);
    expect(priceWithCard({ ...evri, perParcel: 45 }, day({ parcels: 3, bands: bands(1, 0, 0, 2) }))).toBe(35 + 2 * 45);
    expect(priceWithCard({ ...evri, perParcel: 45 }, day({ parcels: 30 }))).toBe(30 * 45);
    // A card not paying by band prices the parcels as one count, whatever the bands.
    expect(priceWithCard(card({ perParcel: 45 }), day({ parcels: 110, bands: bands(60, 40, 10) }))).toBe(110 * 45);
  });

  it('leaves the smallest parcels unpaid first when a cap a stop bites', () => {
    const capped = { ...evri, parcelCapPerStop: 2 };
    // 20 stops pay 40 of 50 parcels: the 10 cut are packets.
    expect(bandPay(capped, day({ stops: 20, bands: bands(12, 28, 10) }))?.map((b) => [b.band, b.paid, b.amount])).toEqual([
      ['packet', 2, 70],
      ['small', 28, 28 * 55],
      ['medium', 0, 0],
      ['large', 10, 1_200],
      ['extraLarge', 0, 0],
    ]);
    expect(bandPay(capped, day({ stops: 3, bands: bands(12, 28, 10) }))?.map((b) => b.paid)).toEqual([0, 0, 0, 6, 0]);
  });

  it('a day’s total is its other pay plus the sum of its bands’ pay, each band its paid parcels at its rate', () => {
    const rate = fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null });
    const cardArb = fc.record({
      bandRates: fc.record({ packet: rate, small: rate, medium: rate, large: rate, extraLarge: rate }),
      perParcel: rate,
      parcelCapPerStop: fc.option(fc.integer({ min: 1, max: 50 }), { nil: null }),
      perStop: fc.option(fc.constant<PayTier[]>(DEFAULT_TIERS.map((t) => ({ ...t }))), { nil: null }),
      perCollection: rate,
      dayRate: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
    });
    const count = fc.integer({ min: 0, max: 400 });
    const dayArb = fc.record({ stops: fc.integer({ min: 0, max: 1_000 }), collections: fc.option(count, { nil: null }), extra: fc.integer({ min: 0, max: 1_000_000 }), bands: fc.record({ packet: count, small: count, medium: count, large: count, extraLarge: count }) });
    fc.assert(
      fc.property(cardArb, dayArb, (rules, typed) => {
        const c = card(rules);
        const parcels = Object.values(typed.bands).reduce((a, b) => a + b, 0);
        const d = day({ ...typed, parcels });
        const byBand = bandPay(c, d)!;
        // Independently: the cap pays at most cap × stops parcels, the smallest cut first.
        const payable = rules.parcelCapPerStop === null ? parcels : Math.min(parcels, rules.parcelCapPerStop * typed.stops);
        let cut = parcels - payable;
        let expected = 0;
        for (const band of ['packet', 'small', 'medium', 'large', 'extraLarge'] as const) {
          const unpaid = Math.min(cut, typed.bands[band]);
          cut -= unpaid;
          expected += (typed.bands[band] - unpaid) * (rules.bandRates[band] ?? rules.perParcel ?? 0);
        }
        const bandSum = byBand.reduce((s, b) => s + b.amount, 0);
        expect(bandSum).toBe(expected);
        expect(byBand.reduce((s, b) => s + b.paid, 0)).toBe(payable);
        const withoutParcels = priceWithCard(c, { ...d, parcels: null, bands: null });
        expect(priceWithCard(c, d)).toBe(withoutParcels + bandSum);
      }),
      { numRuns: 300 },
    );
  });
});
