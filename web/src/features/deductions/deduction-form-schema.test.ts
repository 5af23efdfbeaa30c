import { describe, expect, it } from 'vitest';
import { NO_VEHICLE, vehicleChoiceMessages } from '@/core/tax/vehicle-choice';
import { blankDeductionForm, deductionFormOf, deductionMessages, validateDeductionForm, type DeductionFormInput } from './deduction-form-schema';
import { purposeWords, scheduleWords } from './deduction-words';

const VAN = '0190a6e2-7c1d-7000-8000-000000000v01';
const form = (patch: Partial<DeductionFormInput> = {}): DeductionFormInput => ({ ...blankDeductionForm('2025-03-03'), label: 'Van hire', amount: '185', purpose: 'vehicleHire', ...patch });
const errors = (input: DeductionFormInput) => {
  const result = validateDeductionForm(input);
  return result.ok ? {} : result.errors;
};

describe('the deduction form', () => {
  it('stores pence, and no end for a one-off or an ongoing charge', () => {
    expect(validateDeductionForm(form())).toEqual({ ok: true, value: { label: 'Van hire', amount: 18_500, repeat: 'weekly', from: '2025-03-03', to: null, purpose: 'vehicleHire', vehicleId: null } });
    const ending = validateDeductionForm(form({ repeat: 'monthly', to: '2025-09-03' }));
    expect(ending.ok && ending.value.to).toBe('2025-09-03');
    const once = validateDeductionForm(form({ repeat: 'once', to: '2025-09-03', label: 'Damage', amount: '12.5', purpose: 'other' }));
    expect(once.ok && once.value).toEqual({ label: 'Damage', amount: 1_250, repeat: 'once', from: '2025-03-03', to: null, purpose: 'other', vehicleId: null });
  });

  it('mirrors the server rules with clear messages', () => {
    expect(errors(form({ label: ' ' })).label).toBe(deductionMessages.label);
    expect(errors(form({ label: 'x'.repeat(61) })).label).toBe(deductionMessages.labelLength);
    expect(errors(form({ label: 'Van\thire' })).label).toBe(deductionMessages.labelControl);
    expect(errors(form({ label: 'Van\u2066hire' })).label).toBe(deductionMessages.labelControl);
    expect(errors(form({ amount: '' })).amount).toBe(deductionMessages.amountRequired);
    expect(errors(form({ amount: '1.234' })).amount).toBe(deductionMessages.amountFormat);
    expect(errors(form({ amount: '0' })).amount).toBe(deductionMessages.amountRange);
    expect(errors(form({ amount: '10000.01' })).amount).toBe(deductionMessages.amountRange);
    expect(validateDeductionForm(form({ amount: '10000' })).ok).toBe(true);
    expect(errors(form({ from: '' })).from).toBe(deductionMessages.firstFrom);
    expect(errors(form({ repeat: 'once', from: '' })).from).toBe(deductionMessages.from);
    expect(errors(form({ to: '2025-03-02' })).to).toBe(deductionMessages.to);
    expect(errors(form({ purpose: '' })).purpose).toBe(deductionMessages.purpose);
  });

  it('asks which vehicle a vehicle cost is for while the driver has one, with No vehicle a choice', () => {
    const refused = validateDeductionForm(form({ vehicleId: '' }), true);
    expect(refused.ok ? null : refused.errors.vehicleId).toBe(vehicleChoiceMessages.choose);
    const linked = validateDeductionForm(form({ vehicleId: VAN }), true);
    expect(linked.ok && [linked.value.purpose, linked.value.vehicleId]).toEqual(['vehicleHire', VAN]);
    const none = validateDeductionForm(form({ vehicleId: NO_VEHICLE }), true);
    expect(none.ok && none.value.vehicleId).toBeNull();
    // An admin fee is no vehicle's: nothing to ask.
    expect(validateDeductionForm(form({ purpose: 'other', vehicleId: '' }), true).ok).toBe(true);
  });

  it('reads a stored deduction back into the same form', () => {
    const stored = { label: 'Van hire', amount: 18_500, repeat: 'weekly' as const, from: '2025-03-03', to: null, purpose: 'vehicleHire' as const, vehicleId: VAN };
    const result = validateDeductionForm(deductionFormOf({ ...stored, courierId: 'c' }), true);
    expect(result.ok && result.value).toEqual(stored);
  });

  it('asks what a deduction saved before purposes is for, and its vehicle', () => {
    const before = deductionFormOf({ courierId: 'c', label: 'Van hire', amount: 18_500, repeat: 'weekly', from: '2025-03-03', to: null, purpose: null, vehicleId: null });
    expect([before.purpose, before.vehicleId]).toEqual(['', '']);
    const result = validateDeductionForm(before, true);
    expect(result.ok ? null : result.errors.purpose).toBe(deductionMessages.purpose);
  });
});

describe('scheduleWords', () => {
  it('says when it is charged', () => {
    expect(scheduleWords({ repeat: 'weekly', from: '2025-03-03', to: null })).toBe('Weekly from 03/03/2025');
    expect(scheduleWords({ repeat: 'monthly', from: '2025-03-15', to: '2025-09-15' })).toBe('Monthly from 15/03/2025 until 15/09/2025');
    expect(scheduleWords({ repeat: 'once', from: '2025-03-21', to: null })).toBe('Once on 21/03/2025');
  });
});

describe('purposeWords', () => {
  it('says what it is for and which vehicle', () => {
    const vehicles = [{ id: VAN, name: 'Transit' }];
    expect(purposeWords({ purpose: 'vehicleHire', vehicleId: VAN }, vehicles)).toBe('Vehicle hire or lease · Transit');
    expect(purposeWords({ purpose: 'vehicleHire', vehicleId: null }, vehicles)).toBe('Vehicle hire or lease · no vehicle');
    expect(purposeWords({ purpose: 'vehicleHire', vehicleId: 'gone' }, vehicles)).toBe('Vehicle hire or lease · Deleted vehicle');
    expect(purposeWords({ purpose: 'equipment', vehicleId: null }, vehicles)).toBe('Equipment (scanner, trolley, sat nav)');
    expect(purposeWords({ purpose: null, vehicleId: null }, vehicles)).toBe('Not said what it is for');
  });
});
