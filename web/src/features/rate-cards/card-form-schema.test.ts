import { describe, expect, it } from 'vitest';
import { DEFAULT_TIERS } from '@/core/pay/pay';
import { blankPeak, cardFormOf, cardMessages, nextCardForm, starterRules, validateCardForm, type CardFormInput } from './card-form-schema';

const later = { first: false, takenDates: ['2000-01-01'] };
const form = (patch: Partial<CardFormInput> = {}): CardFormInput => ({ ...nextCardForm(starterRules(), '2025-09-01'), ...patch });
const errors = (input: CardFormInput, context = later) => {
  const result = validateCardForm(input, context);
  return result.ok ? {} : result.errors;
};

describe('the rate card form', () => {
  it('stores pounds as pence, empty boxes as null, and the tiers without the final stop count', () => {
    const result = validateCardForm(form({ label: ' Sept review ', perParcel: '0.45', parcelCapPerStop: '3', perFailed: '0', hourly: '12.5' }), later);
    expect(result).toEqual({
      ok: true,
      value: {
        validFrom: '2025-09-01',
        label: 'Sept review',
        perStop: [{ stopCount: 110, rate: 198 }, { rate: 148 }],
        perParcel: 45,
        bandRates: null,
        parcelCapPerStop: 3,
        perCollection: null,
        perFailed: 0,
        dayRate: null,
        hourly: 1250,
        peaks: [],
      },
    });
  });

  it('stores pay by size band: the bands filled in, the others null; all empty is not paying by band; a cap may go with it', () => {
    const bands = { packet: '0.35', small: '', medium: '0.75', large: '1.1', extraLarge: '' };
    const result = validateCardForm(form({ perStopOn: false, bandRates: bands, parcelCapPerStop: '3' }), later);
    expect(result.ok && result.value.bandRates).toEqual({ packet: 35, small: null, medium: 75, large: 110, extraLarge: null });
    expect(result.ok && result.value.parcelCapPerStop).toBe(3);
    expect(errors(form({ perStopOn: false, bandRates: { ...bands, packet: '', medium: '', large: '' } })).perStopOn).toBe(cardMessages.noRule);
    expect(errors(form({ bandRates: { ...bands, large: '100.01' } })).bandRates).toBe(cardMessages.itemRange);
    expect(errors(form({ bandRates: { ...bands, small: '0.355' } })).bandRates).toBe(cardMessages.money);
    // The form shows a stored card's band rates back as pounds.
    expect(cardFormOf({ ...starterRules(), bandRates: { packet: 35, small: null, medium: 75, large: 110, extraLarge: null } }).bandRates).toEqual({ packet: '0.35', small: '', medium: '0.75', large: '1.10', extraLarge: '' });
  });

  it('keeps the first card from the start whatever the date box says', () => {
    const result = validateCardForm(form({ validFrom: '' }), { first: true, takenDates: [] });
    expect(result.ok && result.value.validFrom).toBe('2000-01-01');
  });

  it('wants a start day after 01/01/2000 that no other card of the courier has', () => {
    expect(errors(form({ validFrom: '' })).validFrom).toBe(cardMessages.validFrom);
    expect(errors(form({ validFrom: '2000-01-01' })).validFrom).toBe(cardMessages.validFromEarly);
    expect(errors(form({ validFrom: '2025-09-01' }), { first: false, takenDates: ['2025-09-01'] }).validFrom).toBe(cardMessages.validFromTaken);
  });

  it('wants at least one way of paying: per stop, parcel, collection, day or hour', () => {
    expect(errors(form({ perStopOn: false })).perStopOn).toBe(cardMessages.noRule);
    expect(errors(form({ perStopOn: false, perFailed: '0.10' })).perStopOn).toBe(cardMessages.noRule); // failed items alone pay nothing
    for (const field of ['perParcel', 'perCollection', 'dayRate', 'hourly'] as const) {
      expect(validateCardForm(form({ perStopOn: false, [field]: '1' }), later).ok).toBe(true);
    }
  });

  it('mirrors the server bounds on each amount and the parcel cap', () => {
    expect(errors(form({ perParcel: 'abc' })).perParcel).toBe(cardMessages.money);
    expect(errors(form({ perParcel: '100.01' })).perParcel).toBe(cardMessages.itemRange);
    expect(errors(form({ perCollection: '-1' })).perCollection).toBe(cardMessages.money);
    expect(errors(form({ dayRate: '1000.01' })).dayRate).toBe(cardMessages.dayRange);
    expect(validateCardForm(form({ dayRate: '1000' }), later).ok).toBe(true);
    expect(errors(form({ hourly: '100.5' })).hourly).toBe(cardMessages.itemRange);
    expect(errors(form({ perParcel: '0.45', parcelCapPerStop: '51' })).parcelCapPerStop).toBe(cardMessages.capRange);
    expect(errors(form({ perParcel: '0.45', parcelCapPerStop: '0' })).parcelCapPerStop).toBe(cardMessages.capRange);
    expect(errors(form({ parcelCapPerStop: '3' })).parcelCapPerStop).toBe(cardMessages.capNeedsParcel);
    expect(errors(form({ label: 'x'.repeat(61) })).label).toBe(cardMessages.label);
    expect(errors(form({ label: 'a\u0007b' })).label).toBe(cardMessages.labelControl);
    expect(errors(form({ label: 'a\u202bb' })).label).toBe(cardMessages.labelControl);
  });

  it('checks each peak: dates in order, an extra and/or a multiplier of 100–300 %', () => {
    const peak = blankPeak('2025-12-01');
    expect(errors(form({ peaks: [peak] })).peaks).toBe(cardMessages.peakNothing(1));
    expect(errors(form({ peaks: [{ ...peak, multiplierPercent: '150' }, { ...peak, to: '2025-11-30', extraPerStop: '0.2' }] })).peaks).toBe(cardMessages.peakOrder(2));
    expect(errors(form({ peaks: [{ ...peak, multiplierPercent: '99' }] })).peaks).toBe(cardMessages.peakMultiplier(1));
    expect(errors(form({ peaks: [{ ...peak, multiplierPercent: '301' }] })).peaks).toBe(cardMessages.peakMultiplier(1));
    expect(errors(form({ peaks: [{ ...peak, extraPerStop: '101' }] })).peaks).toBe(cardMessages.peakExtra(1));
    expect(errors(form({ peaks: [{ ...peak, from: '' }] })).peaks).toBe(cardMessages.peakDates(1));
    expect(errors(form({ peaks: Array.from({ length: 21 }, () => ({ ...peak, multiplierPercent: '120' })) })).peaks).toBe(cardMessages.peaksCount);
    const ok = validateCardForm(form({ peaks: [{ ...peak, to: '2025-12-24', extraPerStop: '0.20', multiplierPercent: '' }] }), later);
    expect(ok.ok && ok.value.peaks).toEqual([{ from: '2025-12-01', to: '2025-12-24', extraPerStop: 20, multiplierPercent: null }]);
  });

  it('reads a stored card back into the same form', () => {
    const rules = { ...starterRules(), perStop: null, perParcel: 45, parcelCapPerStop: 3, peaks: [{ from: '2025-12-01', to: '2025-12-02', extraPerStop: null, multiplierPercent: 150 }] };
    const input = cardFormOf(rules);
    expect(input).toMatchObject({ perStopOn: false, tiers: DEFAULT_TIERS, perParcel: '0.45', parcelCapPerStop: '3', perCollection: '' });
    const result = validateCardForm(input, { first: true, takenDates: [] });
    expect(result.ok && result.value).toEqual(rules);
  });

  it('starts a change from a date as a copy of the rules in force, with no label', () => {
    const input = nextCardForm({ ...starterRules(), label: 'Old', dayRate: 12_000 }, '2025-09-01');
    expect(input).toMatchObject({ validFrom: '2025-09-01', label: '', dayRate: '120.00', perStopOn: true });
  });
});
