import { describe, expect, it } from 'vitest';
import { odometerMessages, validateOdometer } from './odometer-schema';

const input = (start: string, end: string, commute = '12', vehicleId = 'van') => ({ vehicleId, start, end, commute });

describe('validateOdometer', () => {
  it('is no miles when neither reading is typed', () => {
    expect(validateOdometer(input('', ''))).toEqual({ ok: true, value: null });
  });

  it('gives the readings and the day’s commute', () => {
    expect(validateOdometer(input('42000', ' 42130 '))).toEqual({ ok: true, value: { vehicleId: 'van', odometerStart: 42_000, odometerEnd: 42_130, dayCommute: 12 } });
    expect(validateOdometer(input('42000', '42130', ''))).toEqual({ ok: true, value: { vehicleId: 'van', odometerStart: 42_000, odometerEnd: 42_130, dayCommute: 0 } });
  });

  it('asks for both readings, in order, within a day', () => {
    expect(validateOdometer(input('42000', ''))).toEqual({ ok: false, errors: { end: odometerMessages.both } });
    expect(validateOdometer(input('', '42000'))).toEqual({ ok: false, errors: { start: odometerMessages.both } });
    expect(validateOdometer(input('42130', '42000'))).toEqual({ ok: false, errors: { end: odometerMessages.order } });
    expect(validateOdometer(input('0', '2001'))).toEqual({ ok: false, errors: { end: odometerMessages.tooFar } });
    expect(validateOdometer(input('4.5', 'x'))).toEqual({ ok: false, errors: { start: odometerMessages.reading, end: odometerMessages.reading } });
    expect(validateOdometer(input('1', '2', '-3'))).toEqual({ ok: false, errors: { commute: odometerMessages.commute } });
  });
});
