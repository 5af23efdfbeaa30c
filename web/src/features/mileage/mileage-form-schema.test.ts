import { describe, expect, it } from 'vitest';
import { blankMileageForm, defaultBusinessMiles, mileageFormOf, mileageMessages, validateMileageForm, type MileageFormInput } from './mileage-form-schema';

const VAN = 'van-1';

function odometer(start: string, end: string, extra: Partial<MileageFormInput> = {}): MileageFormInput {
  return { ...blankMileageForm('2026-05-04', VAN, 'odometer'), odometerStart: start, odometerEnd: end, ...extra };
}

function typed(business: string, commute = '', extra: Partial<MileageFormInput> = {}): MileageFormInput {
  return { ...blankMileageForm('2026-05-04', VAN, 'typed'), businessMiles: business, commuteMiles: commute, ...extra };
}

function errorsOf(input: MileageFormInput) {
  const result = validateMileageForm(input);
  if (result.ok) throw new Error(`expected errors, got ${JSON.stringify(result.value)}`);
  return result.errors;
}

describe('the mileage form', () => {
  it('stores odometer readings with business as what commuting leaves of the span', () => {
    expect(validateMileageForm(odometer('12000', '12034', { commuteMiles: '6' }))).toEqual({
      ok: true,
      value: { date: '2026-05-04', vehicleId: VAN, courierId: null, odometerStart: 12_000, odometerEnd: 12_034, businessMiles: 28, commuteMiles: 6, note: '' },
    });
  });

  it('keeps business miles the driver typed, the rest of the span being private', () => {
    const result = validateMileageForm(odometer('100', '150', { businessMiles: '30', commuteMiles: '5', courierId: 'evri', note: '  depot run ' }));
    expect(result).toEqual({
      ok: true,
      value: { date: '2026-05-04', vehicleId: VAN, courierId: 'evri', odometerStart: 100, odometerEnd: 150, businessMiles: 30, commuteMiles: 5, note: 'depot run' },
    });
  });

  it('reads readings typed with thousands separators', () => {
    expect(validateMileageForm(odometer('12,000', '12,010'))).toMatchObject({ ok: true, value: { odometerStart: 12_000, odometerEnd: 12_010, businessMiles: 10 } });
  });

  it('stores typed miles with no odometer readings', () => {
    expect(validateMileageForm(typed('42', '8'))).toMatchObject({ ok: true, value: { odometerStart: null, odometerEnd: null, businessMiles: 42, commuteMiles: 8 } });
    // Commuting alone is a mile driven too (it counts in the business-use share).
    expect(validateMileageForm(typed('', '3'))).toMatchObject({ ok: true, value: { businessMiles: 0, commuteMiles: 3 } });
  });

  it('wants both odometer readings or neither', () => {
    expect(errorsOf(odometer('', '12034'))).toEqual({ odometerStart: mileageMessages.odometerStart });
    expect(errorsOf(odometer('12000', ''))).toEqual({ odometerEnd: mileageMessages.odometerEnd });
    // Neither: the driver switches to typed miles, which then need a mile.
    expect(validateMileageForm(typed('5'))).toMatchObject({ ok: true, value: { odometerStart: null, odometerEnd: null } });
  });

  it('wants the end reading at least the start', () => {
    expect(errorsOf(odometer('12034', '12000'))).toEqual({ odometerEnd: mileageMessages.endBeforeStart });
    // A day the vehicle stood still is a valid log line.
    expect(validateMileageForm(odometer('12000', '12000'))).toMatchObject({ ok: true, value: { businessMiles: 0 } });
  });

  it('refuses more than 2,000 miles in a day', () => {
    expect(errorsOf(odometer('0', '2001'))).toEqual({ odometerEnd: mileageMessages.tooFar });
    expect(validateMileageForm(odometer('0', '2000'))).toMatchObject({ ok: true, value: { businessMiles: 2000 } });
    expect(errorsOf(typed('2001'))).toEqual({ businessMiles: mileageMessages.dayMiles });
    expect(errorsOf(typed('1', '2001'))).toEqual({ commuteMiles: mileageMessages.dayMiles });
  });

  it('keeps business plus commuting within the miles driven', () => {
    expect(errorsOf(odometer('100', '134', { businessMiles: '30', commuteMiles: '5' }))).toEqual({
      businessMiles: 'Business and commuting miles add up to more than the 34 miles driven',
    });
    expect(mileageMessages.overSpan(1)).toBe('Business and commuting miles add up to more than the 1 mile driven');
    expect(mileageMessages.overSpan(1500)).toBe('Business and commuting miles add up to more than the 1,500 miles driven');
    // Commuting more than the span leaves no business miles to default to, and says so.
    expect(errorsOf(odometer('100', '104', { commuteMiles: '6' }))).toEqual({ businessMiles: mileageMessages.overSpan(4) });
  });

  it('wants at least a mile without odometer readings', () => {
    expect(errorsOf(typed(''))).toEqual({ businessMiles: mileageMessages.noMiles });
    expect(errorsOf(typed('0', '0'))).toEqual({ businessMiles: mileageMessages.noMiles });
    expect(mileageMessages.noMiles).toBe('Enter the miles, or the odometer readings');
  });

  it('wants whole miles and sensible readings', () => {
    expect(errorsOf(typed('12.5'))).toEqual({ businessMiles: mileageMessages.wholeMiles });
    expect(errorsOf(typed('-3'))).toEqual({ businessMiles: mileageMessages.wholeMiles });
    expect(errorsOf(odometer('abc', '10'))).toEqual({ odometerStart: mileageMessages.odometerRange });
    expect(errorsOf(odometer('9999999', '10000000'))).toEqual({ odometerEnd: mileageMessages.odometerRange });
  });

  it('wants a day, a vehicle and a short plain note', () => {
    expect(errorsOf(typed('5', '', { date: '', vehicleId: '', note: 'x'.repeat(201) }))).toEqual({
      date: mileageMessages.date,
      vehicleId: mileageMessages.vehicle,
      note: mileageMessages.noteLength,
    });
    expect(errorsOf(typed('5', '', { note: 'a\u0007b' }))).toEqual({ note: mileageMessages.noteControl });
    expect(errorsOf(typed('5', '', { note: 'a\u202db' }))).toEqual({ note: mileageMessages.noteControl });
  });

  it('shows the default business miles while the driver types', () => {
    expect(defaultBusinessMiles(odometer('100', '150', { commuteMiles: '8' }))).toBe(42);
    expect(defaultBusinessMiles(odometer('100', '', { commuteMiles: '8' }))).toBeNull();
    expect(defaultBusinessMiles(typed('5'))).toBeNull();
  });

  it('opens a saved record as it was typed', () => {
    const record = { date: '2026-05-04', vehicleId: VAN, courierId: null, odometerStart: 5, odometerEnd: 50, businessMiles: 40, commuteMiles: 0, note: 'x' };
    const form = mileageFormOf(record);
    expect(form).toMatchObject({ milesFrom: 'odometer', odometerStart: '5', odometerEnd: '50', businessMiles: '40', commuteMiles: '', courierId: '' });
    expect(validateMileageForm(form)).toEqual({ ok: true, value: record });
    const typedRecord = { ...record, odometerStart: null, odometerEnd: null, commuteMiles: 3 };
    expect(validateMileageForm(mileageFormOf(typedRecord))).toEqual({ ok: true, value: typedRecord });
  });
});
