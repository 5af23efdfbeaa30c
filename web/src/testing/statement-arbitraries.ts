// Generated logs, rate cards and statements for the matching's property tests (issue 28): the
// statement-lines matching and the statement queries' paid-back rule read the same ones.
import fc from 'fast-check';
import { priceWithCard, type IdentifiedCard } from '@/core/pay/pay';
import type { MatchInput } from '@/core/statement-lines/match-statement';
import { SIZE_BANDS } from '@/core/statement-lines/read-lines';
import type { LineType } from '@/sync/contract.generated';
import { makeDeduction, makeRateCard } from './pay-fixtures';

export const C = 'courier-1';
export const WEEKLY = { periodKind: 'weekly' as const, periodAnchor: '2025-03-16', arrearsWeeks: 2 };
export const WEEK = ['2025-03-16', '2025-03-17', '2025-03-18', '2025-03-19', '2025-03-20', '2025-03-21', '2025-03-22'];

export const DATES = fc.constantFrom(...WEEK, '2025-03-09', '2025-03-12');
const bandRate = fc.option(fc.integer({ min: 0, max: 300 }), { nil: null });
export const cardArb = fc.record({
  perStop: fc.option(fc.tuple(fc.integer({ min: 1, max: 150 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 300 })), { nil: null }),
  perParcel: fc.option(fc.integer({ min: 0, max: 200 }), { nil: null }),
  parcelCapPerStop: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
  perCollection: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
  perFailed: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
  dayRate: fc.option(fc.integer({ min: 0, max: 5_000 }), { nil: null }),
  bandRates: fc.option(
    fc.record({ packet: bandRate, small: bandRate, medium: bandRate, large: bandRate, extraLarge: bandRate }),
    { nil: null },
  ),
});
export type CardSpec = typeof cardArb extends fc.Arbitrary<infer T> ? T : never;
export function cardFrom(spec: CardSpec, id = 'card', validFrom = '2000-01-01'): IdentifiedCard {
  return makeRateCard(id, C, {
    validFrom,
    perStop: spec.perStop ? [{ stopCount: spec.perStop[0], rate: spec.perStop[1] }, { rate: spec.perStop[2] }] : null,
    perParcel: spec.perParcel,
    parcelCapPerStop: spec.parcelCapPerStop,
    perCollection: spec.perCollection,
    perFailed: spec.perFailed,
    dayRate: spec.dayRate,
    bandRates: spec.bandRates,
  });
}
export const bandsArb = fc.dictionary(fc.constantFrom(...SIZE_BANDS), fc.integer({ min: 0, max: 5 }));
export const dayArb = fc.record({
  date: DATES,
  stops: fc.integer({ min: 0, max: 200 }),
  parcels: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
  collections: fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }),
  failed: fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }),
  extra: fc.integer({ min: 0, max: 2_000 }),
  bands: fc.option(bandsArb, { nil: undefined }),
  repriced: fc.option(fc.integer({ min: -500, max: 500 }), { nil: null }),
});
export const lineArb = fc.record({
  date: DATES,
  lineType: fc.constantFrom<LineType>('stop', 'parcel', 'collection', 'failed', 'dayRate', 'bonus', 'deduction', 'adjustment'),
  band: fc.option(fc.constantFrom(...SIZE_BANDS), { nil: null }),
  quantity: fc.integer({ min: 0, max: 300 }),
  rate: fc.option(fc.integer({ min: 0, max: 300 }), { nil: null }),
  amount: fc.integer({ min: 0, max: 50_000 }),
  reference: fc.constantFrom('', 'Van hire', 'X1'),
});
export const deductionArb = fc.record({ label: fc.constantFrom('Van hire', 'Scanner'), amount: fc.integer({ min: 1, max: 30_000 }), repeat: fc.constantFrom('once' as const, 'weekly' as const), from: DATES });

export const inputArb = fc
  .record({
    cards: fc.array(fc.tuple(cardArb, DATES), { minLength: 0, maxLength: 2 }),
    days: fc.array(dayArb, { maxLength: 10 }),
    lines: fc.array(lineArb, { maxLength: 25 }),
    deductions: fc.array(deductionArb, { maxLength: 3 }),
    paidDelta: fc.integer({ min: -5_000, max: 5_000 }),
    arrears: fc.integer({ min: 0, max: 4 }),
  })
  .map(({ cards, days, lines, deductions, paidDelta, arrears }): MatchInput => {
    const madeCards = cards.map(([spec, from], i) => cardFrom(spec, `card-${i}`, i === 0 ? '2000-01-01' : from));
    const loggedDays = days.map((d, i) => {
      const card = madeCards.find(() => true);
      const base = { id: `day-${i}`, date: d.date, courierId: C, stops: d.stops, parcels: d.parcels, collections: d.collections, failed: d.failed, extra: d.extra, startTime: null, finishTime: null, ...(d.bands ? { bands: d.bands } : {}) };
      // A day saved with the card then, or re-priced by hand since: the matching must still add up.
      return { ...base, total: (card ? priceWithCard(card, base) : d.extra) + (d.repriced ?? 0) };
    });
    const matched = lines.map((l, i) => ({
      ...l,
      band: l.lineType === 'parcel' ? l.band : null,
      amount: l.lineType === 'deduction' ? -l.amount : l.lineType === 'adjustment' && i % 2 === 1 ? -l.amount : l.amount,
      id: `line-${i}`,
      invoiceId: 'check',
      courierId: C,
      lineKey: `k${i}`,
    }));
    const linesTotal = matched.reduce((s, l) => s + l.amount, 0);
    return {
      check: { periodStart: WEEK[0]!, periodEnd: WEEK[6]!, paid: Math.max(0, linesTotal + paidDelta), courierId: C },
      days: loggedDays,
      lines: matched,
      cards: madeCards,
      deductions: deductions.map((d, i) => makeDeduction(`ded-${i}`, C, { ...d, to: null })),
      calendar: { ...WEEKLY, arrearsWeeks: arrears },
    };
  });

