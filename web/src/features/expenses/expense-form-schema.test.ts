import { describe, expect, it } from 'vitest';
import { NO_VEHICLE, vehicleChoiceMessages } from '@/core/tax/vehicle-choice';
import { blankExpenseForm, expenseFormOf, expenseMessages, isRealDay, validateExpenseForm, type ExpenseFormInput } from './expense-form-schema';

const COURIER = '0190a6e2-7c1d-7000-8000-000000000c01';
const VEHICLE = '0190a6e2-7c1d-7000-8000-000000000v01';
const PHOTO = '0190a6e2-7c1d-7000-8000-000000000p01';

const form = (patch: Partial<ExpenseFormInput> = {}): ExpenseFormInput => ({ ...blankExpenseForm('2025-05-02'), amount: '45.50', category: 'fuel', ...patch });
const errors = (input: ExpenseFormInput) => {
  const result = validateExpenseForm(input);
  return result.ok ? {} : result.errors;
};

describe('the expense form', () => {
  it('stores pence, null for no courier, vehicle or end, and the photo ids', () => {
    expect(validateExpenseForm(form({ note: '  Diesel  ', receipts: [PHOTO] }))).toEqual({
      ok: true,
      value: {
        date: '2025-05-02',
        amount: 4_550,
        category: 'fuel',
        note: 'Diesel',
        courierId: null,
        vehicleId: null,
        repeat: 'once',
        repeatUntil: null,
        receipts: [PHOTO],
      },
    });
    const tagged = validateExpenseForm(form({ courierId: COURIER, vehicleId: VEHICLE }));
    expect(tagged.ok && [tagged.value.courierId, tagged.value.vehicleId]).toEqual([COURIER, VEHICLE]);
  });

  it('keeps the last payment only for a repeating expense, and none means still running', () => {
    const monthly = validateExpenseForm(form({ repeat: 'monthly', until: '2025-12-02' }));
    expect(monthly.ok && monthly.value.repeatUntil).toBe('2025-12-02');
    const running = validateExpenseForm(form({ repeat: 'weekly', until: '' }));
    expect(running.ok && running.value.repeatUntil).toBeNull();
    const once = validateExpenseForm(form({ repeat: 'once', until: '2025-12-02' }));
    expect(once.ok && once.value.repeatUntil).toBeNull();
    const sameDay = validateExpenseForm(form({ repeat: 'weekly', until: '2025-05-02' }));
    expect(sameDay.ok && sameDay.value.repeatUntil).toBe('2025-05-02');
  });

  it('asks for a real day', () => {
    expect(errors(form({ date: '' })).date).toBe(expenseMessages.date);
    expect(errors(form({ date: '2025-02-30' })).date).toBe(expenseMessages.date);
    expect(errors(form({ date: '1999-12-31' })).date).toBe(expenseMessages.date);
    expect(errors(form({ repeat: 'monthly', date: '' })).date).toBe(expenseMessages.firstDate);
  });

  it('takes amounts from 1p to £100,000 in pounds and pence', () => {
    expect(errors(form({ amount: '' })).amount).toBe(expenseMessages.amountRequired);
    expect(errors(form({ amount: '12.345' })).amount).toBe(expenseMessages.amountFormat);
    expect(errors(form({ amount: '-5' })).amount).toBe(expenseMessages.amountFormat);
    expect(errors(form({ amount: '0' })).amount).toBe(expenseMessages.amountRange);
    expect(errors(form({ amount: '100000.01' })).amount).toBe(expenseMessages.amountRange);
    const most = validateExpenseForm(form({ amount: '100000' }));
    expect(most.ok && most.value.amount).toBe(10_000_000);
    const least = validateExpenseForm(form({ amount: '.01' }));
    expect(least.ok && least.value.amount).toBe(1);
  });

  it('needs a category', () => {
    expect(errors(form({ category: '' })).category).toBe(expenseMessages.category);
  });

  it('keeps the note to one line of at most 200 characters', () => {
    expect(validateExpenseForm(form({ note: 'é'.repeat(200) })).ok).toBe(true);
    expect(errors(form({ note: 'x'.repeat(201) })).note).toBe(expenseMessages.noteLength);
    expect(errors(form({ note: 'Diesel\nand oil' })).note).toBe(expenseMessages.noteControl);
    expect(errors(form({ note: 'Tab\there' })).note).toBe(expenseMessages.noteControl);
    expect(errors(form({ note: 'gnp.\u202eexe' })).note).toBe(expenseMessages.noteControl);
  });

  it('wants the last payment on or after the first, and a real day', () => {
    expect(errors(form({ repeat: 'weekly', until: '2025-05-01' })).until).toBe(expenseMessages.until);
    expect(errors(form({ repeat: 'monthly', until: '2025-13-01' })).until).toBe(expenseMessages.untilDate);
  });

  it('takes at most 5 photos, each once', () => {
    const five = ['a', 'b', 'c', 'd', 'e'];
    expect(validateExpenseForm(form({ receipts: five })).ok).toBe(true);
    expect(errors(form({ receipts: [...five, 'f'] })).receipts).toBe(expenseMessages.receipts);
    const twice = validateExpenseForm(form({ receipts: ['a', 'a'] }));
    expect(twice.ok && twice.value.receipts).toEqual(['a']);
  });

  it('asks which vehicle a running cost is for while the driver has one; "No vehicle" is an answer', () => {
    const withVehicles = (input: ExpenseFormInput) => validateExpenseForm(input, true);
    const refused = withVehicles(form({ category: 'fuel', vehicleId: '' }));
    expect(refused.ok ? null : refused.errors.vehicleId).toBe(vehicleChoiceMessages.choose);
    for (const category of ['vehicleRepairs', 'vehicleInsurance', 'vehicleTax', 'vehicleHire'] as const) {
      expect(withVehicles(form({ category, vehicleId: '' })).ok).toBe(false);
    }
    const linked = withVehicles(form({ category: 'fuel', vehicleId: VEHICLE }));
    expect(linked.ok && linked.value.vehicleId).toBe(VEHICLE);
    const none = withVehicles(form({ category: 'fuel', vehicleId: NO_VEHICLE }));
    expect(none.ok && none.value.vehicleId).toBeNull();
    // Parking is claimed on top of the mileage rate: no question. Nor with no vehicle at all.
    expect(withVehicles(form({ category: 'parkingTolls', vehicleId: '' })).ok).toBe(true);
    expect(validateExpenseForm(form({ category: 'fuel', vehicleId: '' }), false).ok).toBe(true);
    // Fuel saved before the van: editing it asks again rather than keeping "no vehicle".
    const before = expenseFormOf({ date: '2025-05-02', amount: 4_550, category: 'fuel', note: '', courierId: null, vehicleId: null, repeat: 'once', repeatUntil: null, receipts: [] });
    expect(before.vehicleId).toBe('');
    expect(withVehicles(before).ok).toBe(false);
  });

  it('reads a stored expense back into the same form', () => {
    const stored = {
      date: '2025-04-06',
      amount: 2_500,
      category: 'phone' as const,
      note: 'Contract',
      courierId: COURIER,
      vehicleId: null,
      repeat: 'monthly' as const,
      repeatUntil: null,
      receipts: [PHOTO],
    };
    const result = validateExpenseForm(expenseFormOf(stored));
    expect(result.ok && result.value).toEqual(stored);
  });
});

describe('isRealDay', () => {
  it('knows the calendar and the server’s years', () => {
    expect(isRealDay('2024-02-29')).toBe(true);
    expect(isRealDay('2025-02-29')).toBe(false);
    expect(isRealDay('2100-12-31')).toBe(true);
    expect(isRealDay('2101-01-01')).toBe(false);
    expect(isRealDay('2025-5-2')).toBe(false);
  });
});
