import { describe, expect, it } from 'vitest';
import { starterRules } from './card-form-schema';
import { cardRules, cardStart, signedPence } from './card-words';

const card = { ...starterRules(), courierId: 'c' };

describe('card words', () => {
  it('calls the first card "From the start" and a later one by its date', () => {
    expect(cardStart({ validFrom: '2000-01-01' })).toBe('From the start');
    expect(cardStart({ validFrom: '2025-09-01' })).toBe('From 01/09/2025');
  });

  it('lists every way a card pays', () => {
    expect(cardRules(card)).toEqual(['up to 110 stops at £1.98, then £1.48 a stop']);
    expect(
      cardRules({
        ...card,
        perStop: null,
        perParcel: 45,
        parcelCapPerStop: 3,
        perCollection: 30,
        perFailed: 0,
        dayRate: 12_000,
        hourly: 1_250,
        peaks: [{ from: '2025-12-01', to: '2025-12-24', extraPerStop: 20, multiplierPercent: 150 }],
      }),
    ).toEqual([
      '£0.45 a parcel (up to 3 a stop)',
      '£0.30 a collection',
      'Failed or returned items unpaid',
      '£120.00 a day',
      '£12.50 an hour',
      'Peak 01/12/2025 to 24/12/2025: +£0.20 a stop, × 150%',
    ]);
  });

  it('names the bands a card pays by, with their rates and a cap', () => {
    const bands = { packet: 35, small: 55, medium: null, large: 120, extraLarge: null };
    expect(cardRules({ ...card, perStop: null, bandRates: bands, parcelCapPerStop: 3 })).toEqual(['By size band: Packet £0.35, Small £0.55, Large £1.20 (up to 3 a stop)']);
  });

  it('signs a difference', () => {
    expect(signedPence(120)).toBe('+£1.20');
    expect(signedPence(-65)).toBe('−£0.65');
    expect(signedPence(0)).toBe('£0.00');
  });
});
