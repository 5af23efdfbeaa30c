import { describe, expect, it } from 'vitest';
import { DEFAULT_COURIER } from '@/sync/default-courier';
import { blankCourierForm, courierFormOf, courierMessages, PALETTE, validateCourierForm, type CourierFormInput } from './courier-form-schema';

const form = (patch: Partial<CourierFormInput> = {}): CourierFormInput => ({ ...blankCourierForm('2025-03-10'), name: 'Evri', ...patch });
const errors = (input: CourierFormInput) => {
  const result = validateCourierForm(input);
  return result.ok ? {} : result.errors;
};

describe('the courier form', () => {
  it('stores a weekly courier anchored on its weekday', () => {
    expect(validateCourierForm(form({ name: '  Evri ', weekday: '1', arrearsWeeks: '1', colour: '#16A34A' }))).toEqual({
      ok: true,
      value: { name: 'Evri', colour: '#16a34a', periodKind: 'weekly', periodAnchor: '2000-01-03', arrearsWeeks: 1 },
    });
  });

  it('stores a 4-4-5 courier from its cycle start and a monthly one on its day', () => {
    const cycle = validateCourierForm(form({ periodKind: 'fourFourFive', cycleStart: '2025-01-05' }));
    expect(cycle.ok && cycle.value.periodAnchor).toBe('2025-01-05');
    const monthly = validateCourierForm(form({ periodKind: 'monthly', monthDay: '7' }));
    expect(monthly.ok && monthly.value.periodAnchor).toBe('2000-01-07');
  });

  it('mirrors the server rules with clear messages', () => {
    expect(errors(form({ name: '  ' })).name).toBe(courierMessages.name);
    expect(errors(form({ name: 'x'.repeat(61) })).name).toBe(courierMessages.nameLength);
    expect(validateCourierForm(form({ name: 'x'.repeat(60) })).ok).toBe(true);
    expect(errors(form({ name: 'Ev\nri' })).name).toBe(courierMessages.nameControl);
    expect(errors(form({ name: 'Evri\u202e' })).name).toBe(courierMessages.nameControl);
    expect(errors(form({ colour: 'red' })).colour).toBe(courierMessages.colour);
    expect(errors(form({ arrearsWeeks: '13' })).arrearsWeeks).toBe(courierMessages.arrears);
    expect(errors(form({ arrearsWeeks: '-1' })).arrearsWeeks).toBe(courierMessages.arrears);
    expect(errors(form({ arrearsWeeks: '1.5' })).arrearsWeeks).toBe(courierMessages.arrears);
    expect(validateCourierForm(form({ arrearsWeeks: '12' })).ok).toBe(true);
    expect(errors(form({ periodKind: 'monthly', monthDay: '29' })).monthDay).toBe(courierMessages.monthDay);
    expect(errors(form({ periodKind: 'monthly', monthDay: '0' })).monthDay).toBe(courierMessages.monthDay);
    expect(errors(form({ periodKind: 'fourFourFive', cycleStart: '' })).cycleStart).toBe(courierMessages.cycleStart);
  });

  it('reads a stored courier back into the same form', () => {
    const input = courierFormOf(DEFAULT_COURIER, '2025-03-10');
    expect(input).toMatchObject({ name: 'My courier', weekday: '0', periodKind: 'weekly', arrearsWeeks: '0' });
    const result = validateCourierForm(input);
    expect(result.ok && result.value).toEqual(DEFAULT_COURIER);
  });

  it('gives a new courier the first palette colour not yet used', () => {
    expect(blankCourierForm('2025-03-10', [PALETTE[0]!.value]).colour).toBe(PALETTE[1]!.value);
  });
});
