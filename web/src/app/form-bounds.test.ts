import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { penceToPounds } from '@/core/money/money';
import { dayMiles } from '@/core/mileage/day-miles';
import { parseRate, parseStopCount } from '@/core/pay/tier-rules';
import { readDate, readLines, readStatementTable } from '@/core/statement-lines/read-lines';
import { suggestFormat } from '@/core/statement-lines/suggest-format';
import { EXPENSE_CATEGORY_IDS } from '@/core/tax/expense-categories';
import { validateContact, type ContactField, type ContactInput } from '@/features/contact/contact-schema';
import { blankCourierForm, validateCourierForm, type CourierFormInput } from '@/features/couriers/courier-form-schema';
import { blankDeductionForm, validateDeductionForm, type DeductionFormInput } from '@/features/deductions/deduction-form-schema';
import { emptyEntryForm, validateEntryForm, type EntryFormInput } from '@/features/entries/entry-form-schema';
import { validateOdometer } from '@/features/entries/odometer-schema';
import { blankExpenseForm, isRealDay, validateExpenseForm, type ExpenseFormInput } from '@/features/expenses/expense-form-schema';
import { blankMileageForm, validateMileageForm, type MileageFormInput } from '@/features/mileage/mileage-form-schema';
import { blankVehicleForm, validateVehicleForm, type VehicleFormInput } from '@/features/mileage/vehicle-form-schema';
import { profileFormSchema, type ProfileFormInput } from '@/features/profile/profile-schema';
import { blankPeak, cardFormOf, starterRules, validateCardForm, type CardFormInput } from '@/features/rate-cards/card-form-schema';
import { validateStatementCheckForm, type StatementCheckFormInput } from '@/features/statement-checks/statement-check-form-schema';
import { typedLineSchema, type TypedLineInput } from '@/features/statement-lines/typed-line-form-schema';
import { emptyFields, readEvidence, type EvidenceErrors, type EvidenceFields } from '@/features/evidence/evidence-form';
import { parseForm, type FormResult } from '@/lib/form';
import { hasForbiddenCharacters } from '@/lib/text-rules';
import { addDays } from '@/lib/week';
import { BOUNDS, TEXT_RULE } from '@/sync/contract.generated';

// Every form holds its fields to the server's bounds as the contract (generated from the Rust
// domain) states them, never to a copy: for each bounded field, what sits on the bound is
// taken and one past it is refused, at the edges and for any value either side. A form whose
// limit drifts from the contract's fails here before a driver's change is parked for it.

/** The error a field gets when `n` is typed into it (undefined: taken). */
type ErrorAt = (n: number) => string | undefined;

/** `errorAt` takes every n from `min` to `max` and refuses every n past `max` (and below `min`, when above 0). */
function holdsTo(errorAt: ErrorAt, { min = 0, max }: { min?: number; max: number }) {
  expect(errorAt(max), `${max}, on the bound`).toBeUndefined();
  expect(errorAt(max + 1), `${max + 1}, one past it`).toBeDefined();
  expect(errorAt(min), `${min}, the least`).toBeUndefined();
  if (min > 0) expect(errorAt(min - 1), `${min - 1}, below the least`).toBeDefined();
  fc.assert(fc.property(fc.integer({ min, max }), (n) => errorAt(n) === undefined));
  fc.assert(fc.property(fc.integer({ min: max + 1, max: max * 2 + 10 }), (n) => errorAt(n) !== undefined));
}

/** What the server counts as n characters: an emoji is one (two UTF-16 units). */
const chars = (n: number) => '📦'.repeat(n);
const pounds = penceToPounds;
const whole = (n: number) => String(n);

/** The error of `field` when the form is `base` with `field` set to what `text` gives for n. */
function field<I, O>(validate: (input: I) => FormResult<I, O>, base: I, name: keyof I, text: (n: number) => I[keyof I], errorOf: keyof I = name): ErrorAt {
  return (n) => {
    const result = validate({ ...base, [name]: text(n) });
    return result.ok ? undefined : result.errors[errorOf];
  };
}

describe('the forms hold every field to the contract bound', () => {
  it('entry: stops, extra, notes and the counted items', () => {
    const base: EntryFormInput = { ...emptyEntryForm('2025-03-17', 'courier'), stops: '10' };
    const entry = (name: keyof EntryFormInput, text: (n: number) => string) => field((input: EntryFormInput) => validateEntryForm(input), base, name, text);
    holdsTo(entry('stops', whole), { max: BOUNDS.entry.maxStops });
    holdsTo(entry('extra', pounds), { max: BOUNDS.entry.maxExtraPence });
    holdsTo(entry('notes', chars), { max: BOUNDS.entry.maxNotesChars });
    for (const name of ['parcels', 'collections', 'failed'] as const) holdsTo(entry(name, whole), { max: BOUNDS.entry.maxItems });
  });

  it("entry: the day form's odometer readings and the miles between them", () => {
    const odometer = (start: string, end: string, key: 'start' | 'end'): string | undefined => {
      const result = validateOdometer({ vehicleId: 'van', start, end, commute: '' });
      return result.ok ? undefined : result.errors[key];
    };
    holdsTo((n) => odometer(whole(n), whole(n), 'start'), { max: BOUNDS.mileage.maxOdometer });
    holdsTo((n) => odometer('0', whole(n), 'end'), { max: BOUNDS.mileage.maxMiles });
    holdsTo((n) => (dayMiles(0, n, 0) ? undefined : 'refused'), { max: BOUNDS.mileage.maxMiles });
    holdsTo((n) => (dayMiles(n, n, 0) ? undefined : 'refused'), { max: BOUNDS.mileage.maxOdometer });
  });

  it('statement check: amounts, counts, texts and the length of the period', () => {
    const base: StatementCheckFormInput = {
      periodStart: '2025-03-16',
      periodEnd: '2025-03-22',
      paid: '100',
      stops: '',
      reference: '',
      parcels: '',
      collections: '',
      deductions: '',
      status: 'unchecked',
      note: '',
    };
    const check = (name: keyof StatementCheckFormInput, text: (n: number) => string) => field(validateStatementCheckForm, base, name, text);
    const { invoice } = BOUNDS;
    holdsTo(check('paid', pounds), { max: invoice.maxPaidPence });
    holdsTo(check('deductions', pounds), { max: invoice.maxPaidPence });
    holdsTo(check('stops', whole), { max: invoice.maxStops });
    holdsTo(check('parcels', whole), { max: invoice.maxItems });
    holdsTo(check('collections', whole), { max: invoice.maxItems });
    holdsTo(check('reference', chars), { max: invoice.maxReferenceChars });
    holdsTo(check('note', chars), { max: invoice.maxNoteChars });
    holdsTo(check('periodEnd', (days) => addDays(base.periodStart, days - 1)), { min: 1, max: invoice.maxPeriodDays });
  });

  it('courier: the name, the weeks in arrears and the day of the month', () => {
    const base: CourierFormInput = { ...blankCourierForm('2025-03-17'), name: 'Evri' };
    holdsTo(field(validateCourierForm, base, 'name', chars), { min: 1, max: BOUNDS.courier.maxNameChars });
    holdsTo(field(validateCourierForm, base, 'arrearsWeeks', whole), { max: BOUNDS.courier.maxArrearsWeeks });
    holdsTo(field(validateCourierForm, { ...base, periodKind: 'monthly' }, 'monthDay', whole), { min: 1, max: BOUNDS.courier.maxMonthlyAnchorDay });
  });

  it('rate card: the label, every rate, the parcel cap, the peaks and the tiers', () => {
    const { rateCard } = BOUNDS;
    const base: CardFormInput = cardFormOf(starterRules());
    const card = (input: CardFormInput) => validateCardForm(input, { first: true, takenDates: [] });
    const on = (name: keyof CardFormInput, text: (n: number) => string, at: CardFormInput = base) => field(card, at, name, text);
    holdsTo(on('label', chars), { max: rateCard.maxLabelChars });
    for (const name of ['perParcel', 'perCollection', 'perFailed', 'hourly'] as const) holdsTo(on(name, pounds), { max: rateCard.maxUnitPence });
    holdsTo(on('dayRate', pounds), { max: rateCard.maxDayRatePence });
    holdsTo(on('parcelCapPerStop', whole, { ...base, perParcel: '0.10' }), { min: rateCard.minParcelCapPerStop, max: rateCard.maxParcelCapPerStop });

    const peak = { ...blankPeak('2025-12-01'), multiplierPercent: '150' };
    holdsTo(field(card, base, 'peaks', (n) => Array.from({ length: n }, () => peak)), { max: rateCard.maxPeaks });
    holdsTo(field(card, base, 'peaks', (n) => [{ ...peak, extraPerStop: pounds(n) }]), { max: rateCard.maxUnitPence });
    holdsTo(field(card, base, 'peaks', (n) => [{ ...peak, multiplierPercent: whole(n) }]), { min: rateCard.minMultiplierPercent, max: rateCard.maxMultiplierPercent });

    const tiers = (n: number) => Array.from({ length: n }, (_, i) => (i === n - 1 ? { rate: 148 } : { stopCount: i + 1, rate: 198 }));
    holdsTo(field(card, base, 'tiers', tiers), { min: rateCard.minTiers, max: rateCard.maxTiers });
    holdsTo(field(card, base, 'tiers', (rate) => [{ stopCount: 110, rate }, { rate: 148 }]), { min: rateCard.minRatePence, max: rateCard.maxRatePence });
    holdsTo(field(card, base, 'tiers', (stopCount) => [{ stopCount, rate: 198 }, { rate: 148 }]), { min: rateCard.minStopCount, max: rateCard.maxStopCount });
    // The tier editor reads what is typed into a tier by the same bounds.
    holdsTo((n) => (parseRate(pounds(n)) === null ? 'refused' : undefined), { min: rateCard.minRatePence, max: rateCard.maxRatePence });
    holdsTo((n) => (parseStopCount(whole(n)) === null ? 'refused' : undefined), { min: rateCard.minStopCount, max: rateCard.maxStopCount });
  });

  it('deduction: the label and the amount', () => {
    const base: DeductionFormInput = { ...blankDeductionForm('2025-03-17'), label: 'Van hire', amount: '10', purpose: EXPENSE_CATEGORY_IDS[0] };
    const deduction = (input: DeductionFormInput) => validateDeductionForm(input);
    holdsTo(field(deduction, base, 'label', chars), { min: 1, max: BOUNDS.deduction.maxLabelChars });
    holdsTo(field(deduction, base, 'amount', pounds), { min: 1, max: BOUNDS.deduction.maxAmountPence });
  });

  it('expense: the amount, the note, the receipt photos and the years a day may be in', () => {
    const base: ExpenseFormInput = { ...blankExpenseForm('2025-03-17'), amount: '10', category: EXPENSE_CATEGORY_IDS[0] };
    const expense = (input: ExpenseFormInput) => validateExpenseForm(input);
    holdsTo(field(expense, base, 'amount', pounds), { min: 1, max: BOUNDS.expense.maxAmountPence });
    holdsTo(field(expense, base, 'note', chars), { max: BOUNDS.expense.maxNoteChars });
    holdsTo(field(expense, base, 'receipts', (n) => Array.from({ length: n }, (_, i) => `photo-${i}`)), { max: BOUNDS.expense.maxReceipts });
    holdsTo((year) => (isRealDay(`${String(year).padStart(4, '0')}-01-01`) ? undefined : 'refused'), { min: BOUNDS.day.minYear, max: BOUNDS.day.maxYear });
  });

  it('vehicle: the name and the commute', () => {
    const base: VehicleFormInput = { ...blankVehicleForm(), name: 'Transit' };
    const vehicle = (input: VehicleFormInput) => validateVehicleForm(input);
    holdsTo(field(vehicle, base, 'name', chars), { min: 1, max: BOUNDS.vehicle.maxNameChars });
    holdsTo(field(vehicle, base, 'commuteMiles', whole), { max: BOUNDS.vehicle.maxCommuteMiles });
  });

  it('mileage: the miles typed, the odometer readings, the miles between them and the note', () => {
    const { mileage } = BOUNDS;
    const typed: MileageFormInput = { ...blankMileageForm('2025-03-17', 'van', 'typed'), businessMiles: '10' };
    const read: MileageFormInput = { ...blankMileageForm('2025-03-17', 'van', 'odometer'), odometerStart: '1000', odometerEnd: '1010' };
    holdsTo(field(validateMileageForm, typed, 'businessMiles', whole), { min: 1, max: mileage.maxMiles });
    holdsTo(field(validateMileageForm, { ...typed, businessMiles: '1' }, 'commuteMiles', whole), { max: mileage.maxMiles });
    holdsTo(field(validateMileageForm, typed, 'note', chars), { max: mileage.maxNoteChars });
    holdsTo(field(validateMileageForm, read, 'odometerStart', whole), { max: mileage.maxOdometer });
    holdsTo(field(validateMileageForm, { ...read, odometerStart: '0' }, 'odometerEnd', whole), { max: mileage.maxMiles });
  });

  it('profile: the display name and the bio', () => {
    const base: ProfileFormInput = { displayName: 'Sam', bio: '' };
    const profile = (input: ProfileFormInput) => parseForm(profileFormSchema, input);
    holdsTo(field(profile, base, 'displayName', chars), { min: 1, max: BOUNDS.profile.maxDisplayNameChars });
    holdsTo(field(profile, base, 'bio', chars), { max: BOUNDS.profile.maxBioChars });
  });

  it('contact: every field, in characters', () => {
    const base: ContactInput = { name: 'Sam', email: 'sam@example.com', subject: '', message: 'Hello' };
    const contact = (name: ContactField, text: (n: number) => string): ErrorAt => (n) => {
      const result = validateContact({ ...base, [name]: text(n) });
      return result.ok || result.field !== name ? undefined : result.message;
    };
    const { contact: bounds } = BOUNDS;
    holdsTo(contact('name', chars), { min: 1, max: bounds.maxNameChars });
    // The shortest address the form takes is a@b.c: the rest is the domain's last part.
    holdsTo(contact('email', (n) => `a@b.${'c'.repeat(n - 4)}`), { min: 5, max: bounds.maxEmailChars });
    holdsTo(contact('subject', chars), { max: bounds.maxSubjectChars });
    holdsTo(contact('message', chars), { min: 1, max: bounds.maxMessageChars });
  });

  it("statement line typed in: the quantity, the amount either way and the reference", () => {
    const base: TypedLineInput = { date: '2025-03-18', lineType: 'bonus', band: '', quantity: '1', amount: '5', reference: '' };
    const line = (input: TypedLineInput) => parseForm(typedLineSchema, input);
    const { statementLine } = BOUNDS;
    holdsTo(field(line, base, 'quantity', whole), { max: statementLine.maxQuantity });
    holdsTo(field(line, base, 'amount', pounds), { max: statementLine.maxAmountPence });
    holdsTo(field(line, { ...base, lineType: 'adjustment' }, 'amount', (n) => `-${pounds(n)}`), { max: statementLine.maxAmountPence });
    holdsTo(field(line, base, 'reference', chars), { max: statementLine.maxReferenceChars });
  });

  it("statement line read from a courier's file: the quantity, the rate, the amount and the reference", () => {
    const { statementLine } = BOUNDS;
    const header = 'Date,Route,Description,Stops,Rate (£),Amount (£)';
    const format = suggestFormat(readStatementTable(`${header}\n17/03/2025,R12,Multi-drop stops,118,1.48,174.64\n`), 'courier');
    const row = (cells: { stops?: string; rate?: string; amount?: string; route?: string }) =>
      readLines(readStatementTable(`${header}\n17/03/2025,${cells.route ?? 'R12'},Multi-drop stops,${cells.stops ?? '1'},${cells.rate ?? '1.48'},${cells.amount ?? '1.48'}\n`), format);
    const problem = (cells: Parameters<typeof row>[0]) => row(cells).problems[0]?.problem;
    holdsTo((n) => problem({ stops: whole(n) }), { max: statementLine.maxQuantity });
    holdsTo((n) => problem({ rate: pounds(n) }), { max: statementLine.maxRatePence });
    holdsTo((n) => problem({ amount: pounds(n) }), { max: statementLine.maxAmountPence });
    holdsTo((year) => (readDate(`17/03/${year}`, 'dayMonthYear') === null ? 'refused' : undefined), { min: BOUNDS.day.minYear, max: BOUNDS.day.maxYear });
    // A longer reference is kept to the most a line holds, whole characters.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: statementLine.maxReferenceChars * 2 }), (n) => {
        expect(row({ route: chars(n) }).rows[0]?.line.reference).toBe(chars(Math.min(n, statementLine.maxReferenceChars)));
      }),
    );
  });

  it('evidence: the text, where and who, in characters, and the minutes waited', () => {
    const { evidence } = BOUNDS;
    const error = (fields: Partial<EvidenceFields>, key: keyof EvidenceErrors) => {
      const read = readEvidence({ ...emptyFields(fields.type), ...fields }, { entryId: 'day-1' }, '2026-03-02T14:05:00Z', null);
      return 'errors' in read ? read.errors[key] : undefined;
    };
    holdsTo((n) => error({ type: 'note', text: chars(n) }, 'text'), { min: 1, max: evidence.maxTextChars });
    holdsTo((n) => error({ type: 'waiting', minutes: whole(n) }, 'minutes'), { min: 1, max: evidence.maxWaitingMinutes });
    holdsTo((n) => error({ type: 'waiting', minutes: '5', place: chars(n) }, 'place'), { max: evidence.maxNameChars });
    holdsTo((n) => error({ type: 'instruction', text: 'Take Leeds', fromWhom: chars(n) }, 'fromWhom'), { min: 1, max: evidence.maxNameChars });
  });

  it("free text: refused exactly for the contract's characters, line breaks and tabs kept in notes", () => {
    const forbidden = (code: number, multiLine: boolean) =>
      !(multiLine && (TEXT_RULE.multiLineAllowed as readonly number[]).includes(code)) && TEXT_RULE.forbidden.some(([low, high]) => code >= low && code <= high);
    const edges = TEXT_RULE.forbidden.flatMap(([low, high]) => [low - 1, low, high, high + 1]).filter((code) => code >= 0);
    const codes = fc.oneof(fc.constantFrom(...edges, ...TEXT_RULE.multiLineAllowed), fc.integer({ min: 0, max: 0x10ffff }).filter((code) => code < 0xd800 || code > 0xdfff));
    fc.assert(
      fc.property(codes, fc.boolean(), (code, multiLine) => hasForbiddenCharacters(`a${String.fromCodePoint(code)}b`, multiLine) === forbidden(code, multiLine)),
      { numRuns: 2000 },
    );
  });
});
