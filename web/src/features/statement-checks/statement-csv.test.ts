import { describe, expect, it } from 'vitest';
import { csvMessages, readStatementCsv } from './statement-csv';

describe('reading a statement CSV', () => {
  it('picks the columns out by name, any case, with or without (£), and ignores the rest', () => {
    const text = '\uFEFFRoute,TOTAL (£),Stops,parcels,Collections,Deductions (£)\r\nR12,"1,234.50",640,"1,020",12,£207.50\r\n';
    expect(readStatementCsv(text)).toEqual({
      ok: true,
      rows: 1,
      values: { paid: '1234.50', stops: '640', parcels: '1020', collections: '12', deductions: '207.50' },
    });
  });

  it('adds several rows together, reads LF line ends and skips blank lines', () => {
    const text = 'Date,Paid,Stops,Deductions\n2025-03-03,£198.00,100,-195.00\n\n2025-03-04,232.6,120,(12.50)\n';
    expect(readStatementCsv(text)).toEqual({ ok: true, rows: 2, values: { paid: '430.60', stops: '220', deductions: '207.50' } });
  });

  it('leaves out the figures a statement does not give', () => {
    expect(readStatementCsv('Total\r\n512.40')).toEqual({ ok: true, rows: 1, values: { paid: '512.40' } });
    expect(readStatementCsv('Total,Stops\r\n512.40,')).toEqual({ ok: true, rows: 1, values: { paid: '512.40' } });
  });

  it('says clearly why a file cannot be used', () => {
    expect(readStatementCsv('')).toEqual({ ok: false, error: csvMessages.noTotal });
    expect(readStatementCsv('Date,Stops\r\n2025-03-03,100')).toEqual({ ok: false, error: csvMessages.noTotal });
    expect(readStatementCsv('Total,Stops\r\n')).toEqual({ ok: false, error: csvMessages.noRows });
    expect(readStatementCsv('Total,Stops\r\n"12,40')).toEqual({ ok: false, error: csvMessages.unreadable });
    expect(readStatementCsv('\u0000\u0001PK\u0003\u0004"x"y')).toEqual({ ok: false, error: csvMessages.unreadable });
    expect(readStatementCsv('Total,Stops\r\n512.40,100\r\n12.3.4,5')).toEqual({
      ok: false,
      error: 'Row 3: "12.3.4" under Total is not an amount in pounds, e.g. 1,234.50.',
    });
    expect(readStatementCsv('Total,Stops\r\n512.40,1.5')).toEqual({ ok: false, error: 'Row 2: "1.5" under Stops is not a whole number.' });
    expect(readStatementCsv('Total\r\n-5.00')).toEqual({ ok: false, error: 'Row 2: "-5.00" under Total is not an amount in pounds, e.g. 1,234.50.' });
    expect(readStatementCsv('Total\r\n"12,34.00"')).toMatchObject({ ok: false });
  });
});
