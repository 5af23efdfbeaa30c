import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOUNDS } from '@/sync/contract.generated';
import { blankFuelFillForm, fuelFillFormOf, fuelMessages, parseThousandths, thousandthsText, validateFuelFillForm, type FuelFillFormInput } from './fuel-fill-form-schema';

const VAN = 'van-1';

function form(extra: Partial<FuelFillFormInput> = {}): FuelFillFormInput {
  return { ...blankFuelFillForm('2026-05-04', VAN), quantity: '45.67', cost: '68.45', ...extra };
}

function errorsOf(input: FuelFillFormInput) {
  const result = validateFuelFillForm(input);
  if (result.ok) throw new Error(`expected errors, got ${JSON.stringify(result.value)}`);
  return result.errors;
}

describe('the fuel fill form', () => {
  it('starts on today, the given vehicle, litres and a full tank', () => {
    expect(blankFuelFillForm('2026-05-04', VAN)).toEqual({ date: '2026-05-04', vehicleId: VAN, unit: 'litres', quantity: '', cost: '', odometer: '', full: true, note: '' });
  });

  it('stores litres as millilitres and pounds as pence, exactly', () => {
    expect(validateFuelFillForm(form({ odometer: '42,130', note: '  Shell ' }))).toEqual({
      ok: true,
      value: { date: '2026-05-04', vehicleId: VAN, unit: 'litres', quantity: 45_670, cost: 6_845, odometer: 42_130, full: true, note: 'Shell' },
    });
    expect(validateFuelFillForm(form({ unit: 'kWh', quantity: '41.5', cost: '0', full: false }))).toMatchObject({ ok: true, value: { unit: 'kWh', quantity: 41_500, cost: 0, odometer: null, full: false } });
    expect(validateFuelFillForm(form({ cost: '£1.15', quantity: '0.001' }))).toMatchObject({ ok: true, value: { cost: 115, quantity: 1 } });
  });

  it('names every problem at once, in the unit chosen', () => {
    expect(errorsOf({ date: '', vehicleId: '', unit: 'kWh', quantity: '1.2345', cost: '1.999', odometer: '12.5', full: true, note: 'a\u0007' })).toEqual({
      date: fuelMessages.date,
      vehicleId: fuelMessages.vehicle,
      quantity: 'Enter the kWh as a number, e.g. 45.67',
      cost: fuelMessages.costFormat,
      odometer: fuelMessages.odometer,
      note: fuelMessages.noteControl,
    });
    expect(errorsOf(form({ quantity: '', cost: '' }))).toEqual({ quantity: 'Please enter how many litres', cost: fuelMessages.costRequired });
  });

  it('holds the server’s bounds from the contract', () => {
    const { maxQuantity, maxCostPence, maxOdometer, maxNoteChars } = BOUNDS.fuelFill;
    expect(validateFuelFillForm(form({ quantity: thousandthsText(maxQuantity), cost: '2000.00', odometer: String(maxOdometer), note: 'é'.repeat(maxNoteChars) })).ok).toBe(true);
    expect(maxCostPence).toBe(200_000);
    expect(errorsOf(form({ quantity: '0', cost: '2000.01', odometer: String(maxOdometer + 1), note: 'n'.repeat(maxNoteChars + 1) }))).toEqual({
      quantity: 'Enter from 0.001 to 500 litres',
      cost: fuelMessages.costRange,
      odometer: fuelMessages.odometer,
      note: fuelMessages.noteLength,
    });
    expect(errorsOf(form({ quantity: '500.001' })).quantity).toBe('Enter from 0.001 to 500 litres');
  });

  it('edits a stored fill as it was typed', () => {
    const stored = { date: '2026-05-04', vehicleId: VAN, unit: 'litres' as const, quantity: 45_670, cost: 6_845, odometer: null, full: false, note: 'Top-up' };
    expect(fuelFillFormOf(stored)).toEqual({ date: '2026-05-04', vehicleId: VAN, unit: 'litres', quantity: '45.67', cost: '68.45', odometer: '', full: false, note: 'Top-up' });
    expect(validateFuelFillForm(fuelFillFormOf(stored))).toEqual({ ok: true, value: stored });
  });

  it('reads any quantity it wrote back to the same whole number (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: BOUNDS.fuelFill.maxQuantity }), (thousandths) => {
        expect(parseThousandths(thousandthsText(thousandths))).toBe(thousandths);
      }),
    );
  });
});
