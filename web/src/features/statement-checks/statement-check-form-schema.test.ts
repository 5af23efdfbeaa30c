import { makeStatementCheckContent } from '@/testing/sync-handle';
import { describe, expect, it } from 'vitest';
import { blankStatementCheckForm, statementCheckFormOf, statementCheckMessages, validateStatementCheckForm, type StatementCheckFormInput } from './statement-check-form-schema';

const form = (over: Partial<StatementCheckFormInput> = {}): StatementCheckFormInput => ({
  periodStart: '2025-03-16',
  periodEnd: '2025-03-22',
  paid: '512.40',
  stops: '',
  reference: ' INV-7 ',
  parcels: '',
  collections: '',
  deductions: '',
  status: 'unchecked',
  note: '',
  ...over,
});

const NEW_FIELDS = { parcels: null, collections: null, deductions: null, status: 'unchecked', note: '' } as const;

describe('invoice form', () => {
  it('turns what was typed into pence, optional stops and a trimmed reference', () => {
    expect(validateStatementCheckForm(form())).toEqual({
      ok: true,
      value: { periodStart: '2025-03-16', periodEnd: '2025-03-22', paid: 51240, stops: null, reference: 'INV-7', ...NEW_FIELDS },
    });
    expect(validateStatementCheckForm(form({ stops: '640' }))).toMatchObject({ ok: true, value: { stops: 640 } });
  });

  it.each([
    [{ periodStart: '' }, 'periodStart', statementCheckMessages.periodStart],
    [{ periodEnd: '2025-03-15' }, 'periodEnd', statementCheckMessages.order],
    [{ periodEnd: '2026-03-17' }, 'periodEnd', statementCheckMessages.length],
    [{ paid: '' }, 'paid', statementCheckMessages.paidRequired],
    [{ paid: '12.345' }, 'paid', statementCheckMessages.paidFormat],
    [{ paid: '-4' }, 'paid', statementCheckMessages.paidFormat],
    [{ paid: '100000.01' }, 'paid', statementCheckMessages.paidRange],
    [{ stops: '1.5' }, 'stops', statementCheckMessages.stops],
    [{ stops: '100001' }, 'stops', statementCheckMessages.stops],
    [{ reference: 'x'.repeat(101) }, 'reference', statementCheckMessages.reference],
    [{ parcels: '-1' }, 'parcels', statementCheckMessages.parcels],
    [{ parcels: '100001' }, 'parcels', statementCheckMessages.parcels],
    [{ collections: '2.5' }, 'collections', statementCheckMessages.collections],
    [{ deductions: '19.999' }, 'deductions', statementCheckMessages.deductionsFormat],
    [{ deductions: '100000.01' }, 'deductions', statementCheckMessages.deductionsRange],
    [{ status: 'paid' as never }, 'status', statementCheckMessages.status],
    [{ note: 'x'.repeat(1_001) }, 'note', statementCheckMessages.note],
    [{ reference: 'INV\u202e7' }, 'reference', statementCheckMessages.referenceCharacters],
    [{ reference: 'INV\n7' }, 'reference', statementCheckMessages.referenceCharacters],
    [{ note: 'Day\u0000missing' }, 'note', statementCheckMessages.noteCharacters],
  ])('refuses %o', (over, field, message) => {
    expect(validateStatementCheckForm(form(over))).toEqual({ ok: false, errors: { [field]: message } });
  });

  it('accepts the bounds themselves', () => {
    expect(validateStatementCheckForm(form({ periodEnd: '2026-03-16' })).ok).toBe(true); // 366 days
    expect(validateStatementCheckForm(form({ periodStart: '2024-01-01', periodEnd: '2024-12-31', paid: '100000', stops: '100000', reference: 'x'.repeat(100) })).ok).toBe(true);
    expect(validateStatementCheckForm(form({ parcels: '100000', collections: '0', deductions: '100000', note: 'x'.repeat(1_000) })).ok).toBe(true);
  });

  it('reads the statement’s other figures, its status and a trimmed note', () => {
    expect(validateStatementCheckForm(form({ parcels: '820', collections: ' 12 ', deductions: '195', status: 'disputed', note: ' Day missing ' }))).toMatchObject({
      ok: true,
      value: { parcels: 820, collections: 12, deductions: 19_500, status: 'disputed', note: 'Day missing' },
    });
  });

  it('starts a new check on its pay period and round-trips a saved one', () => {
    expect(blankStatementCheckForm({ start: '2024-12-29', end: '2025-01-04' })).toMatchObject({ periodStart: '2024-12-29', periodEnd: '2025-01-04', status: 'unchecked' });
    const saved = { periodStart: '2025-03-16', periodEnd: '2025-03-22', paid: 51240, stops: 640, reference: 'INV-7' };
    expect(validateStatementCheckForm(statementCheckFormOf(makeStatementCheckContent(saved)))).toEqual({ ok: true, value: { ...saved, ...NEW_FIELDS } });
    const full = { ...saved, parcels: 900, collections: 3, deductions: 20_750, status: 'resolved', note: 'Paid next week' } as const;
    expect(validateStatementCheckForm(statementCheckFormOf(makeStatementCheckContent(full)))).toEqual({ ok: true, value: full });
  });
});
