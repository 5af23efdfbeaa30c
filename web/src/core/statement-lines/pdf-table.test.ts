// The PDF statement read as the device reads it: a PDF written by the tests (testing/statement-pdf.ts)
// read through the real pdfjs-dist (its Node build; the app loads the browser build on demand).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pdfOf, statementPdf } from '@/testing/statement-pdf';
import { pdfRows, pdfTable, pdfTextItems, type PdfJs, type PdfTextItem } from './pdf-table';
import { readLines } from './read-lines';
import { suggestFormat } from './suggest-format';

const pdfjs = (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as PdfJs;

const HEADER = ['Work date', 'Barcode', 'Service', 'Size', 'Rate', 'Amount'];
const COLUMNS = [40, 110, 230, 310, 380, 450];
const ROWS = [
  ['18/03/2025', 'H00A1B2C3D4E5', 'Delivery', 'Small', '0.45', '0.45'],
  ['18/03/2025', 'H00A1B2C3D4E6', 'Delivery', 'Packet', '0.35', '0.35'],
  ['18/03/2025', 'H00A1B2C3D4E9', 'Collection', '', '0.25', '0.25'],
  ['19/03/2025', 'H00A1B2C3D4F1', 'Delivery', 'Extra large', '1.60', '1.60'],
  ['19/03/2025', 'DEP-CHG-0319', 'Depot charge', '', '', '2.00'],
  ['19/03/2025', 'DEP-CHG-0319', 'Depot charge', '', '', '2.00'],
];

async function tableOf(bytes: Uint8Array) {
  return pdfTable(pdfRows(await pdfTextItems(pdfjs, bytes)));
}

describe('a PDF statement read into a table', () => {
  it('finds the header below the titles, each row under its headings (empty cells kept), and leaves the titles out', async () => {
    const bytes = statementPdf({ title: ['Evri courier statement', 'Period 16/03/2025 to 22/03/2025'], header: HEADER, rows: ROWS, columns: COLUMNS, total: 'Total 4.65' });
    const table = await tableOf(bytes);
    expect(table.header).toEqual(HEADER);
    expect(table.rows.map((r) => r.cells)).toEqual([...ROWS, ['Total 4.65', '', '', '', '', '']]);
    // Row numbers count the PDF's rows: two titles, the header, then the lines.
    expect(table.rows.map((r) => r.row)).toEqual([4, 5, 6, 7, 8, 9, 10]);
  });

  it('reads as lines through the same mapping as a CSV file: sizes as bands, the charge twice, the total row named as not read', async () => {
    const table = await tableOf(statementPdf({ title: ['Statement'], header: HEADER, rows: ROWS, columns: COLUMNS, total: 'Total 4.65' }));
    const format = { ...suggestFormat(table, 'courier-1'), source: 'pdf' as const };
    expect([format.dateColumn, format.amountColumn, format.bandColumn, format.typeColumn, format.rateColumn, format.referenceColumn]).toEqual(['Work date', 'Amount', 'Size', 'Service', 'Rate', 'Barcode']);
    const { rows, problems } = readLines(table, format);
    expect(rows.map((r) => [r.line.date, r.line.lineType, r.line.band, r.line.amount])).toEqual([
      ['2025-03-18', 'parcel', 'small', 45],
      ['2025-03-18', 'parcel', 'packet', 35],
      ['2025-03-18', 'collection', null, 25],
      ['2025-03-19', 'parcel', 'extraLarge', 160],
      ['2025-03-19', 'deduction', null, -200],
      ['2025-03-19', 'deduction', null, -200],
    ]);
    expect(problems).toEqual([{ row: 9, problem: 'Work date "Total 4.65" is not a date; Amount "" is not an amount' }]);
  });

  it('carries a long statement over pages, the repeated header not taken for a line', async () => {
    const many = Array.from({ length: 120 }, (_, i) => ['20/03/2025', `H${String(i).padStart(6, '0')}`, 'Delivery', 'Small', '0.45', '0.45']);
    const table = await tableOf(statementPdf({ title: ['Statement'], header: HEADER, rows: many, columns: COLUMNS }));
    expect(table.rows.map((r) => r.cells)).toEqual(many);
  });

  it('refuses a PDF with no table of text', async () => {
    await expect(tableOf(pdfOf([[{ x: 40, y: 800, text: 'Scanned statement' }]]))).rejects.toThrow('The PDF has no table of text');
  });
});

describe('pdfRows', () => {
  const item = (text: string, x: number, y: number, page = 1): PdfTextItem => ({ text, x, y, page, width: text.length * 5 });

  it('joins pieces close on a row into one cell and splits at a gap, top row first, across pages', () => {
    const rows = pdfRows([item('22.50', 300, 700), item('Van', 40, 700.8), item('hire', 60, 700), item('Next', 40, 800, 2), item('Title', 40, 780)]);
    expect(rows.map((r) => [r.page, r.cells.map((c) => c.text)])).toEqual([
      [1, ['Title']],
      [1, ['Van hire', '22.50']],
      [2, ['Next']],
    ]);
  });

  it('keeps every piece of text, cells left to right, whatever the positions (property)', () => {
    const pieces = fc.array(fc.record({ text: fc.stringMatching(/^[A-Za-z0-9.]{1,8}$/), x: fc.integer({ min: 0, max: 500 }), y: fc.integer({ min: 0, max: 800 }), page: fc.integer({ min: 1, max: 3 }) }), { maxLength: 40 });
    fc.assert(
      fc.property(pieces, (raw) => {
        const items = raw.map((p) => ({ ...p, width: p.text.length * 5 }));
        const rows = pdfRows(items);
        // Touching pieces join without a space, so compare the characters.
        const chars = (texts: string[]) => texts.join('').replace(/ /g, '').split('').sort();
        expect(chars(rows.flatMap((r) => r.cells.map((c) => c.text)))).toEqual(chars(items.map((i) => i.text)));
        for (const row of rows) for (let i = 1; i < row.cells.length; i += 1) expect(row.cells[i]!.x).toBeGreaterThan(row.cells[i - 1]!.x);
      }),
    );
  });
});
