import { describe, expect, it } from 'vitest';
import { blankVehicleForm, keptMethod, validateVehicleForm, vehicleFormOf, vehicleMessages } from './vehicle-form-schema';

describe('the vehicle form', () => {
  it('stores a named van on the flat rate', () => {
    expect(validateVehicleForm({ name: '  Transit  ', type: 'carVan', method: 'flatRate', commuteMiles: '' })).toEqual({
      ok: true,
      value: { name: 'Transit', type: 'carVan', method: 'flatRate', commuteMiles: 0 },
    });
  });

  it('wants a short plain name', () => {
    expect(validateVehicleForm({ ...blankVehicleForm(), name: '   ' })).toEqual({ ok: false, errors: { name: vehicleMessages.name } });
    expect(validateVehicleForm({ ...blankVehicleForm(), name: 'v'.repeat(61) })).toEqual({ ok: false, errors: { name: vehicleMessages.nameLength } });
    expect(validateVehicleForm({ ...blankVehicleForm(), name: 'Van\u0000' })).toEqual({ ok: false, errors: { name: vehicleMessages.nameControl } });
    expect(validateVehicleForm({ ...blankVehicleForm(), name: 'Van\u2067' })).toEqual({ ok: false, errors: { name: vehicleMessages.nameControl } });
    expect(validateVehicleForm({ ...blankVehicleForm(), name: 'v'.repeat(60) }).ok).toBe(true);
  });

  it('makes a bicycle actual costs, whatever the method field said', () => {
    expect(validateVehicleForm({ name: 'Bike', type: 'bicycle', method: 'flatRate', commuteMiles: '' })).toEqual({
      ok: true,
      value: { name: 'Bike', type: 'bicycle', method: 'actualCosts', commuteMiles: 0 },
    });
  });

  it('keeps the method of a vehicle used in an earlier tax year, with HMRC’s reason', () => {
    const van = { name: 'Van', type: 'carVan' as const, method: 'flatRate' as const, commuteMiles: 0 };
    expect(validateVehicleForm({ ...vehicleFormOf(van), method: 'actualCosts' }, 'flatRate')).toEqual({
      ok: false,
      errors: { method: 'This vehicle has used this method in an earlier tax year. HMRC says it keeps it while you use the vehicle for your business.' },
    });
    // Turning it into a bicycle would change the method too: said on the type.
    expect(validateVehicleForm({ ...vehicleFormOf(van), type: 'bicycle' }, 'flatRate')).toEqual({ ok: false, errors: { type: vehicleMessages.methodKept } });
    // The name and type may still change while the method stays.
    expect(validateVehicleForm({ name: 'Old van', type: 'motorcycle', method: 'flatRate', commuteMiles: '' }, 'flatRate').ok).toBe(true);
  });

  it('keeps the method a sent update fixed, saying so', () => {
    const van = { name: 'Van', type: 'carVan' as const, method: 'flatRate' as const, commuteMiles: 0 };
    expect(validateVehicleForm({ ...vehicleFormOf(van), type: 'bicycle' }, 'flatRate', vehicleMessages.methodFixed)).toEqual({
      ok: false,
      errors: { type: 'A quarterly update you sent claimed this vehicle’s method. HMRC says it keeps it while you use the vehicle for your business.' },
    });
  });

  describe('keptMethod', () => {
    const van = { id: 'van', method: 'flatRate' as const };
    // Today is in 2026-27 (from 6 April 2026).
    const today = '2026-05-01';

    it('is free while the vehicle has only this tax year’s miles', () => {
      expect(keptMethod(van, [{ vehicleId: 'van', date: '2026-04-06' }], today)).toBeNull();
      expect(keptMethod(van, [], today)).toBeNull();
    });

    it('is kept from a record dated in an earlier tax year (5 April is the old year)', () => {
      expect(keptMethod(van, [{ vehicleId: 'van', date: '2026-04-05' }], today)).toBe('flatRate');
    });

    it('ignores other vehicles’ records and deleted records', () => {
      expect(keptMethod(van, [{ vehicleId: 'car', date: '2025-01-01' }], today)).toBeNull();
      expect(keptMethod(van, [{ vehicleId: 'van', date: '2025-01-01', deleted: 1 }], today)).toBeNull();
    });
  });
});
