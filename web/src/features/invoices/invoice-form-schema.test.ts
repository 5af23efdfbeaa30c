import { makeInvoiceContent } from '@/testing/sync-handle';
import { describe, expect, it } from 'vitest';
import { blankInvoiceForm, invoiceFormOf, invoiceMessages, validateInvoiceForm, type InvoiceFormInput } from './invoice-form-schema';

const form = (over: Partial<InvoiceFormInput> = {}): InvoiceFormInput => ({
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
    expect(validateInvoiceForm(form())).toEqual({
      ok: true,
      value: { periodStart: '2025-03-16', periodEnd: '2025-03-22', paid: 51240, stops: null, reference: 'INV-7', ...NEW_FIELDS },
    });
    expect(validateInvoiceForm(form({ stops: '640' }))).toMatchObject({ ok: true, value: { stops: 640 } });
  });

  it.each([
    [{ periodStart: '' }, 'periodStart', invoiceMessages.periodStart],
    [{ periodEnd: '2025-03-15' }, 'periodEnd', invoiceMessages.order],
    [{ periodEnd: '2026-03-17' }, 'periodEnd', invoiceMessages.length],
    [{ paid: '' }, 'paid', invoiceMessages.paidRequired],
    [{ paid: '12.345' }, 'paid', invoiceMessages.paidFormat],
    [{ paid: '-4' }, 'paid', invoiceMessages.paidFormat],
    [{ paid: '100000.01' }, 'paid', invoiceMessages.paidRange],
    [{ stops: '1.5' }, 'stops', invoiceMessages.stops],
    [{ stops: '100001' }, 'stops', invoiceMessages.stops],
    [{ reference: 'x'.repeat(101) }, 'reference', invoiceMessages.reference],
    [{ parcels: '-1' }, 'parcels', invoiceMessages.parcels],
    [{ parcels: '100001' }, 'parcels', invoiceMessages.parcels],
    [{ collections: '2.5' }, 'collections', invoiceMessages.collections],
    [{ deductions: '19.999' }, 'deductions', invoiceMessages.deductionsFormat],
    [{ deductions: '100000.01' }, 'deductions', invoiceMessages.deductionsRange],
    [{ status: 'paid' as never }, 'status', invoiceMessages.status],
    [{ note: 'x'.repeat(1_001) }, 'note', invoiceMessages.note],
    [{ reference: 'INV\u202e7' }, 'reference', invoiceMessages.referenceCharacters],
    [{ reference: 'INV\n7' }, 'reference', invoiceMessages.referenceCharacters],
    [{ note: 'Day\u0000missing' }, 'note', invoiceMessages.noteCharacters],
  ])('refuses %o', (over, field, message) => {
    expect(validateInvoiceForm(form(over))).toEqual({ ok: false, errors: { [field]: message } });
  });

  it('accepts the bounds themselves', () => {
    expect(validateInvoiceForm(form({ periodEnd: '2026-03-16' })).ok).toBe(true); // 366 days
    expect(validateInvoiceForm(form({ periodStart: '2024-01-01', periodEnd: '2024-12-31', paid: '100000', stops: '100000', reference: 'x'.repeat(100) })).ok).toBe(true);
    expect(validateInvoiceForm(form({ parcels: '100000', collections: '0', deductions: '100000', note: 'x'.repeat(1_000) })).ok).toBe(true);
  });

  it('reads the statement’s other figures, its status and a trimmed note', () => {
    expect(validateInvoiceForm(form({ parcels: '820', collections: ' 12 ', deductions: '195', status: 'disputed', note: ' Day missing ' }))).toMatchObject({
      ok: true,
      value: { parcels: 820, collections: 12, deductions: 19_500, status: 'disputed', note: 'Day missing' },
    });
  });

  it('starts a new check on its pay period and round-trips a saved one', () => {
    expect(blankInvoiceForm({ start: '2024-12-29', end: '2025-01-04' })).toMatchObject({ periodStart: '2024-12-29', periodEnd: '2025-01-04', status: 'unchecked' });
    const saved = { periodStart: '2025-03-16', periodEnd: '2025-03-22', paid: 51240, stops: 640, reference: 'INV-7' };
    expect(validateInvoiceForm(invoiceFormOf(makeInvoiceContent(saved)))).toEqual({ ok: true, value: { ...saved, ...NEW_FIELDS } });
    const full = { ...saved, parcels: 900, collections: 3, deductions: 20_750, status: 'resolved', note: 'Paid next week' } as const;
    expect(validateInvoiceForm(invoiceFormOf(makeInvoiceContent(full)))).toEqual({ ok: true, value: full });
  });
});
