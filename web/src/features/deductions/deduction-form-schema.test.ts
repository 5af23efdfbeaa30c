import { describe, expect, it } from 'vitest';
import { blankDeductionForm, deductionFormOf, deductionMessages, validateDeductionForm, type DeductionFormInput } from './deduction-form-schema';
import { scheduleWords } from './deduction-words';

const form = (patch: Partial<DeductionFormInput> = {}): DeductionFormInput => ({ ...blankDeductionForm('2025-03-03'), label: 'Van hire', amount: '185', ...patch });
const errors = (input: DeductionFormInput) => {
  const result = validateDeductionForm(input);
  return result.ok ? {} : result.errors;
};

describe('the deduction form', () => {
  it('stores pence, and no end for a one-off or an ongoing charge', () => {
    expect(validateDeductionForm(form())).toEqual({ ok: true, value: { label: 'Van hire', amount: 18_500, repeat: 'weekly', from: '2025-03-03', to: null } });
    const ending = validateDeductionForm(form({ repeat: 'monthly', to: '2025-09-03' }));
    expect(ending.ok && ending.value.to).toBe('2025-09-03');
    const once = validateDeductionForm(form({ repeat: 'once', to: '2025-09-03', label: 'Damage', amount: '12.5' }));
    expect(once.ok && once.value).toEqual({ label: 'Damage', amount: 1_250, repeat: 'once', from: '2025-03-03', to: null });
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
  });

  it('reads a stored deduction back into the same form', () => {
    const stored = { label: 'Van hire', amount: 18_500, repeat: 'weekly' as const, from: '2025-03-03', to: null };
    const result = validateDeductionForm(deductionFormOf({ ...stored, courierId: 'c' }));
    expect(result.ok && result.value).toEqual(stored);
  });
});

describe('scheduleWords', () => {
  it('says when it is charged', () => {
    expect(scheduleWords({ repeat: 'weekly', from: '2025-03-03', to: null })).toBe('Weekly from 03/03/2025');
    expect(scheduleWords({ repeat: 'monthly', from: '2025-03-15', to: '2025-09-15' })).toBe('Monthly from 15/03/2025 until 15/09/2025');
    expect(scheduleWords({ repeat: 'once', from: '2025-03-21', to: null })).toBe('Once on 21/03/2025');
  });
});
