import { makeInvoiceContent } from '@/testing/sync-handle';
import { describe, expect, it } from 'vitest';
import { blankInvoiceForm, invoiceFormOf, invoiceMessages, validateInvoiceForm, type InvoiceFormInput } from './invoice-form-schema';

const form = (over: Partial<InvoiceFormInput> = {}): InvoiceFormInput => ({
  periodStart: '2025-03-16', periodEnd: '2025-03-22', paid: '512.40', stops: '', reference: ' INV-7 ', ...over,
});

describe('invoice form', () => {
  it('turns what was typed into pence, optional stops and a trimmed reference', () => {
    expect(validateInvoiceForm(form())).toEqual({
      ok: true,
      value: { periodStart: '2025-03-16', periodEnd: '2025-03-22', paid: 51240, stops: null, reference: 'INV-7' },
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
  ])('refuses %o', (over, field, message) => {
    expect(validateInvoiceForm(form(over))).toEqual({ ok: false, errors: { [field]: message } });
  });

  it('accepts the bounds themselves', () => {
    expect(validateInvoiceForm(form({ periodEnd: '2026-03-16' })).ok).toBe(true); // 366 days
    expect(validateInvoiceForm(form({ periodStart: '2024-01-01', periodEnd: '2024-12-31', paid: '100000', stops: '100000', reference: 'x'.repeat(100) })).ok).toBe(true);
  });

  it('starts a new check on last week and round-trips a saved one', () => {
    expect(blankInvoiceForm('2024-12-29')).toMatchObject({ periodStart: '2024-12-29', periodEnd: '2025-01-04' });
    const saved = { periodStart: '2025-03-16', periodEnd: '2025-03-22', paid: 51240, stops: 640, reference: 'INV-7' };
    expect(validateInvoiceForm(invoiceFormOf(makeInvoiceContent(saved)))).toEqual({ ok: true, value: saved });
  });
});
