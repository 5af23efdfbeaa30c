import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIERS, FIRST_CARD_FROM, payFor, type IdentifiedCard } from './pay';
import type { EntryContent, RateCardContent } from '@/sync/types';
import { capNote, lastUsedCourierId, paidFields, PAY_INPUTS, payInputsChanged, priceEditedDay, priceNewDay, pricingNote, type DayDraft } from './day-pricing';

const ME = 'user-1'; // the default courier and its first card have the user's id
const EVRI = 'courier-evri';

function card(id: string, content: Partial<RateCardContent> = {}): IdentifiedCard {
  return {
    id,
    courierId: ME,
    validFrom: FIRST_CARD_FROM,
    label: '',
    perStop: [...DEFAULT_TIERS],
    perParcel: null,
    parcelCapPerStop: null,
    perCollection: null,
    perFailed: null,
    dayRate: null,
    hourly: null,
    peaks: [],
    bandRates: null,
    ...content,
  };
}

// The default card, then a rate cut from 1 September 2025: 20p less per stop in both tiers.
const first = card(ME);
const cut = card('card-cut', { validFrom: '2025-09-01', perStop: [{ stopCount: 110, rate: 178 }, { rate: 128 }] });
const evri = card('card-evri', { courierId: EVRI, perStop: null, perParcel: 45, perCollection: 30 });
const cards = [first, cut, evri];

const draft = (over: Partial<DayDraft> = {}): DayDraft => ({
  date: '2025-08-20',
  courierId: ME,
  stops: 120,
  parcels: null,
  collections: null,
  failed: null,
  startTime: null,
  finishTime: null,
  extra: 0,
  notes: '',
  separateShift: false,
  bands: null,
  ...over,
});

describe('priceNewDay', () => {
  it('prices a day with the card in force for its courier on its date and records that card', () => {
    expect(priceNewDay(draft({ date: '2025-08-31' }), cards)).toMatchObject({ total: payFor(DEFAULT_TIERS, 120), rateCardId: ME });
    expect(priceNewDay(draft({ date: '2025-09-01' }), cards)).toMatchObject({ total: 110 * 178 + 10 * 128, rateCardId: 'card-cut' });
    expect(priceNewDay(draft({ courierId: EVRI, parcels: 140, collections: 3, extra: 500 }), cards)).toMatchObject({
      total: 140 * 45 + 3 * 30 + 500,
      rateCardId: 'card-evri',
    });
  });

  it('with no card for the courier (none pulled yet), counts the extra only and records no card', () => {
    expect(priceNewDay(draft({ extra: 1_250 }), [])).toMatchObject({ total: 1_250, rateCardId: null });
    expect(priceNewDay(draft({ courierId: 'courier-new', extra: 0 }), cards)).toMatchObject({ total: 0, rateCardId: null });
  });

  it('keeps every field typed', () => {
    const day = draft({ parcels: 130, collections: 2, failed: 1, startTime: '07:30', finishTime: '16:00', notes: 'Depot B' });
    expect(priceNewDay(day, cards)).toEqual({ ...day, total: payFor(DEFAULT_TIERS, 120), rateCardId: ME });
  });
});

describe('priceEditedDay (issue 12: editing notes never changes money)', () => {
  // Logged in August at the old rate: £232.60 by the first card.
  const saved: EntryContent = { ...draft(), notes: 'Monday run', total: 23_260, rateCardId: ME };

  it('keeps the total and card exactly when only the notes change, whatever the cards say now', () => {
    // The card that priced it has since been edited to other rates (or deleted): the day keeps its money.
    const edited = [card(ME, { perStop: [{ stopCount: 110, rate: 100 }, { rate: 50 }] }), cut];
    for (const now of [cards, edited, []]) {
      expect(priceEditedDay(saved, draft({ notes: 'Monday run, depot closed early' }), now)).toEqual({
        ...saved,
        notes: 'Monday run, depot closed early',
        total: 23_260,
        rateCardId: ME,
      });
    }
  });

  it('keeps a total saved with no card (logged before the cards arrived) when only the notes change', () => {
    const early: EntryContent = { ...saved, total: 0, rateCardId: null };
    expect(priceEditedDay(early, draft({ notes: 'later note' }), cards)).toMatchObject({ total: 0, rateCardId: null });
  });

  it('moves the total by exactly the change of extra and keeps the card when only the extra changes', () => {
    // A day whose re-price the driver declined: the cards now say otherwise, the day does not.
    const old: EntryContent = { ...saved, extra: 500, total: 19_999 + 500 };
    expect(priceEditedDay(old, draft({ extra: 1_250 }), cards)).toMatchObject({ total: 19_999 + 1_250, rateCardId: ME });
    expect(priceEditedDay(old, draft({ extra: 0 }), [])).toMatchObject({ total: 19_999, rateCardId: ME });
  });

  it('keeps a total the driver would not get from any card today (a day priced by old tiers)', () => {
    const old: EntryContent = { ...saved, total: 19_999 };
    expect(priceEditedDay(old, draft({ notes: 'x' }), cards).total).toBe(19_999);
  });

  it.each([
    ['stops', { stops: 100 }, payFor(DEFAULT_TIERS, 100), ME],
    ['parcels', { parcels: 5 }, 23_260, ME],
    ['collections', { collections: 5 }, 23_260, ME],
    ['failed', { failed: 5 }, 23_260, ME],
    ['start and finish', { startTime: '08:00', finishTime: '17:00' }, 23_260, ME],
    ['the date, across the cut', { date: '2025-09-02' }, 110 * 178 + 10 * 128, 'card-cut'],
    ['the courier', { courierId: EVRI, parcels: 100 }, 100 * 45, 'card-evri'],
  ] as const)('re-prices when %s change(s), with the card in force on the day’s date', (_what, change, total, rateCardId) => {
    expect(priceEditedDay(saved, draft({ ...change, notes: 'edited too' }), cards)).toMatchObject({ ...change, notes: 'edited too', total, rateCardId });
  });

  it('re-prices an old day with the card of its own date, never with the newest card', () => {
    const before = { ...saved, total: 1, rateCardId: 'gone' };
    expect(priceEditedDay(before, draft({ stops: 121 }), cards)).toMatchObject({ total: payFor(DEFAULT_TIERS, 121), rateCardId: ME });
  });

  it('names exactly the fields that decide pay', () => {
    expect([...PAY_INPUTS].sort()).toEqual(['collections', 'courierId', 'date', 'failed', 'finishTime', 'parcels', 'startTime', 'stops']);
    expect(payInputsChanged(draft(), draft({ notes: 'anything' }))).toBe(false);
    expect(payInputsChanged(draft({ parcels: 0 }), draft({ parcels: null }))).toBe(true);
  });
});

describe('lastUsedCourierId', () => {
  const couriers = [{ id: ME }, { id: EVRI }];

  it('is the courier of the most recently saved day', () => {
    const entries = [
      { courierId: ME, updatedAt: '2025-03-20T18:00:00Z' },
      { courierId: EVRI, updatedAt: '2025-03-21T18:00:00Z' },
      { courierId: ME, updatedAt: '2025-03-19T18:00:00Z' },
    ];
    expect(lastUsedCourierId(entries, couriers, ME)).toBe(EVRI);
  });

  it('skips days of a courier deleted since', () => {
    const entries = [
      { courierId: 'deleted', updatedAt: '2025-03-22T18:00:00Z' },
      { courierId: EVRI, updatedAt: '2025-03-21T18:00:00Z' },
    ];
    expect(lastUsedCourierId(entries, couriers, ME)).toBe(EVRI);
  });

  it('falls back to the default courier, then the first one, then the user id before any courier arrives', () => {
    expect(lastUsedCourierId([], couriers, ME)).toBe(ME);
    expect(lastUsedCourierId([], [{ id: EVRI }], ME)).toBe(EVRI);
    expect(lastUsedCourierId([], [], ME)).toBe(ME);
  });
});

describe('paidFields and pricingNote', () => {
  it('asks for what the card prices: stops for per-stop, parcels for per-parcel, times for hourly, nothing for a day rate', () => {
    expect(paidFields(first)).toEqual({ stops: true, parcels: false, bands: false, collections: false, failed: false, times: false });
    expect(paidFields(evri)).toEqual({ stops: false, parcels: true, bands: false, collections: true, failed: false, times: false });
    expect(paidFields(card('x', { perStop: null, perFailed: 0, hourly: 1_200 }))).toEqual({ stops: false, parcels: false, bands: false, collections: false, failed: false, times: true });
    expect(paidFields(card('x', { perStop: null, dayRate: 12_000 }))).toEqual({ stops: false, parcels: false, bands: false, collections: false, failed: false, times: false });
    expect(paidFields(card('x', { perFailed: 20 })).failed).toBe(true);
    expect(paidFields(null)).toEqual({ stops: false, parcels: false, bands: false, collections: false, failed: false, times: false });
    // A card paying by band asks for the parcels by band instead of one count; with a cap, the stops too.
    const byBand = card('x', { perStop: null, perParcel: 45, bandRates: { packet: 35, small: 55, medium: null, large: 120, extraLarge: null } });
    expect(paidFields(byBand)).toEqual({ stops: false, parcels: false, bands: true, collections: false, failed: false, times: false });
    expect(paidFields({ ...byBand, perParcel: null, parcelCapPerStop: 3 }).stops).toBe(true);
    // A cap per stop, or a peak's extra per stop, needs the stops even without per-stop pay.
    expect(paidFields(card('x', { perStop: null, perParcel: 45, parcelCapPerStop: 2 })).stops).toBe(true);
    expect(paidFields(card('x', { perStop: null, dayRate: 100, peaks: [{ from: '2025-12-01', to: '2025-12-24', extraPerStop: 10, multiplierPercent: null }] })).stops).toBe(true);
  });

  it('says how many parcels a cap paid and why, only when it bit', () => {
    const capped = card('x', { perStop: null, perParcel: 45, parcelCapPerStop: 2 });
    expect(capNote(capped, { parcels: 95, stops: 40 })).toBe('80 of 95 parcels paid: up to 2 a stop on 40 stops');
    expect(capNote(capped, { parcels: 80, stops: 40 })).toBeNull();
    expect(capNote(capped, { parcels: 3, stops: 1 })).toBe('2 of 3 parcels paid: up to 2 a stop on 1 stop');
    expect(capNote(capped, { parcels: null, stops: 40 })).toBeNull();
    expect(capNote(evri, { parcels: 500, stops: 1 })).toBeNull();
    expect(capNote(null, { parcels: 500, stops: 1 })).toBeNull();
  });

  it('says which card prices the day, or that none does', () => {
    expect(pricingNote(cut, 'DPD')).toBe('Priced with DPD rates from 01/09/2025');
    expect(pricingNote(first, 'My courier')).toBe('Priced with My courier rates from the start');
    expect(pricingNote(null, 'My courier')).toBe('No rate card for this date — only extra pay counts');
  });
});

describe('re-pricing is explicit (properties)', () => {
  it('no card added, edited or removed, and no edit that leaves the pay inputs alone, moves a saved day', () => {
    const anyCards = fc.array(
      fc.record({ id: fc.constantFrom('a', 'b', 'c', ME), validFrom: fc.constantFrom(FIRST_CARD_FROM, '2025-06-01', '2025-09-01'), rate: fc.integer({ min: 1, max: 500 }) }),
      { maxLength: 4 },
    );
    fc.assert(
      fc.property(anyCards, fc.integer({ min: 0, max: 1_000_000 }), fc.nat(1_000_000), fc.nat(1_000_000), fc.string(), (list, total, oldExtra, newExtra, notes) => {
        const now = list.map(({ id, validFrom, rate }) => card(id, { validFrom, perStop: [{ stopCount: 50, rate }, { rate }] }));
        const saved: EntryContent = { ...draft({ extra: oldExtra }), total: total + oldExtra, rateCardId: 'whichever' };
        const edited = priceEditedDay(saved, draft({ extra: newExtra, notes }), now);
        expect(edited.rateCardId).toBe('whichever');
        expect(edited.total).toBe(total + newExtra);
      }),
    );
  });
});
