import { describe, expect, it } from 'vitest';
import { priceWithCard, type IdentifiedCard } from './pay';
import { entryFieldsBeforeCouriers } from '@/sync/default-courier';
import type { RateCardContent } from '@/sync/types';
import { repricePlan, type PlannedEntry } from './reprice-plan';

const user = 'user-1';
const rules = (perStop: number, validFrom: string, courierId = user): RateCardContent => ({
  courierId,
  validFrom,
  label: '',
  perStop: [{ stopCount: 100, rate: perStop }, { rate: perStop - 50 }],
  perParcel: null,
  parcelCapPerStop: null,
  perCollection: null,
  perFailed: null,
  dayRate: null,
  hourly: null,
  peaks: [],
  bandRates: null,
});
const first: IdentifiedCard = { ...rules(200, '2000-01-01'), id: user };
const cut: IdentifiedCard = { ...rules(150, '2025-09-01'), id: 'cut' };

function day(id: string, date: string, stops: number, card: IdentifiedCard | null, extra: Partial<PlannedEntry> = {}): PlannedEntry {
  const base = { date, stops, extra: 0, notes: '', ...entryFieldsBeforeCouriers(user) };
  const total = card ? priceWithCard(card, base) : 0;
  return { ...base, total, rateCardId: card?.id ?? null, id, deleted: 0, ...extra };
}

describe('repricePlan', () => {
  it('takes the days from the new card on, with their old and new totals and the signed sum', () => {
    const entries = [day('a', '2025-08-31', 100, first), day('c', '2025-09-03', 10, first), day('b', '2025-09-01', 100, first)];
    const plan = repricePlan(entries, [first, cut], cut);
    expect(plan.days.map((d) => d.id)).toEqual(['b', 'c']); // oldest first, the day before the card untouched
    expect(plan.days[0]).toEqual({ id: 'b', date: '2025-09-01', before: { total: 20_000, rateCardId: user }, after: { total: 15_000, rateCardId: 'cut' } });
    expect(plan.from).toBe('2025-09-01');
    expect(plan.difference).toBe(-5_000 - 500);
  });

  it('leaves out deleted days, other couriers, days a later card governs and days already priced so', () => {
    const later: IdentifiedCard = { ...rules(300, '2025-10-01'), id: 'later' };
    const entries = [
      day('deleted', '2025-09-02', 100, first, { deleted: 1 }),
      day('other', '2025-09-02', 100, first, { courierId: 'evri' }),
      day('october', '2025-10-02', 100, first),
      day('done', '2025-09-05', 100, cut),
    ];
    expect(repricePlan(entries, [first, cut, later], cut)).toEqual({ days: [], cardFrom: '2025-09-01', from: null, difference: 0 });
  });

  it('takes the days a card no longer reaches when its date moves later, priced by the card before it', () => {
    // The cut was from 01/09 and priced the 2nd; moved to the 3rd, the 2nd falls back to the first card.
    const moved: IdentifiedCard = { ...cut, validFrom: '2025-09-03' };
    const entries = [day('x', '2025-09-02', 100, cut), day('y', '2025-09-04', 100, cut)];
    const plan = repricePlan(entries, [first, moved], moved);
    expect(plan.days).toEqual([{ id: 'x', date: '2025-09-02', before: { total: 15_000, rateCardId: 'cut' }, after: { total: 20_000, rateCardId: user } }]);
    expect(plan.difference).toBe(5_000);
  });

  it('takes a day whose total is right but whose card is not', () => {
    const same: IdentifiedCard = { ...rules(200, '2025-09-01'), id: 'same' };
    const plan = repricePlan([day('a', '2025-09-02', 100, first)], [first, same], same);
    expect(plan.days).toHaveLength(1);
    expect(plan.difference).toBe(0);
    expect(plan.days[0]!.after).toEqual({ total: 20_000, rateCardId: 'same' });
  });

  it('is empty for a card no day falls under, and ignores a deleted card', () => {
    const deleted: IdentifiedCard = { ...cut, deleted: 1 };
    expect(repricePlan([day('a', '2025-09-02', 100, first)], [first, deleted], deleted).days).toEqual([]);
  });

  it('re-prices an edited first card for every day of its courier, raises included', () => {
    const raised: IdentifiedCard = { ...first, perStop: [{ stopCount: 100, rate: 210 }, { rate: 150 }] };
    const plan = repricePlan([day('a', '2024-01-01', 100, first), day('b', '2025-01-01', 110, first)], [raised], raised);
    expect(plan.days.map((d) => d.after.total)).toEqual([21_000, 22_500]);
    expect(plan.difference).toBe(1_000 + 1_000);
  });
});
