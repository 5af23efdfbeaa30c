import { describe, expect, it } from 'vitest';
import { blankPeak, type CardFormInput } from './card-form-schema';
import { sectionsInUse } from './card-sections';

const perStopOnly: CardFormInput = {
  validFrom: '2025-01-01',
  label: '',
  perStopOn: true,
  tiers: [{ rate: 198 }],
  perParcel: '',
  bandRates: { packet: '', small: '', medium: '', large: '', extraLarge: '' },
  parcelCapPerStop: '',
  perCollection: '',
  perFailed: '',
  dayRate: '',
  hourly: '',
  peaks: [],
};

describe('sectionsInUse', () => {
  it('uses none of the optional parts for a card paid per stop only', () => {
    expect([...sectionsInUse(perStopOnly)]).toEqual([]);
    expect([...sectionsInUse({ ...perStopOnly, perParcel: '   ' })]).toEqual([]);
  });

  it.each<[Partial<CardFormInput>, string[]]>([
    [{ perParcel: '0.45' }, ['perItem']],
    [{ parcelCapPerStop: '3' }, ['perItem']],
    [{ perCollection: '0.20' }, ['perItem']],
    [{ perFailed: '0.10' }, ['perItem']],
    [{ dayRate: '120' }, ['perTime']],
    [{ hourly: '12.21' }, ['perTime']],
    [{ peaks: [blankPeak('2025-12-01')] }, ['peaks']],
    [{ perParcel: '0.45', hourly: '12', peaks: [blankPeak('2025-12-01')] }, ['perItem', 'perTime', 'peaks']],
  ])('shows the part %j uses', (change, parts) => {
    expect([...sectionsInUse({ ...perStopOnly, ...change })]).toEqual(parts);
  });
});
