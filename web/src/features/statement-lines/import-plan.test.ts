import perParcelCsv from '@/core/statement-lines/fixtures/per-parcel.csv?raw';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planLineImport } from './import-plan';
import { readLines, readStatementTable, type ReadRow } from '@/core/statement-lines/read-lines';
import { suggestFormat } from '@/core/statement-lines/suggest-format';

const CHECK = { id: '0190a6e2-7c1d-7000-8000-000000000201', courierId: '0190a6e2-7c1d-7000-8000-0000000000c1' };

function row(cells: string[], index: number): ReadRow {
  return { row: index + 2, cells, line: { date: '2025-03-18', lineType: 'stop', band: null, quantity: 1, rate: null, amount: 100, reference: '' } };
}

describe('importing statement lines', () => {
  it('adds every row of a file once, keeps a charge taken twice as two lines, and adds nothing the second time', async () => {
    const table = readStatementTable(perParcelCsv);
    const { rows } = readLines(table, suggestFormat(table, CHECK.courierId));
    const first = await planLineImport(CHECK, rows, new Set());
    expect(first.lines).toHaveLength(rows.length);
    const charges = first.lines.filter((l) => l.content.lineType === 'deduction');
    expect(charges).toHaveLength(2);
    expect(charges[0]?.id).not.toBe(charges[1]?.id);
    expect(first.lines.every((l) => /^csv:[0-9a-f]{32}:\d+$/.test(l.content.lineKey))).toBe(true);
    const second = await planLineImport(CHECK, rows, new Set(first.lines.map((l) => l.id)));
    expect(second).toEqual({ lines: [], already: rows.length });
  });

  it('a line on another check is another record', async () => {
    const rows = [row(['a'], 0)];
    const here = await planLineImport(CHECK, rows, new Set());
    const there = await planLineImport({ ...CHECK, id: '0190a6e2-7c1d-7000-8000-000000000202' }, rows, new Set());
    expect(here.lines[0]?.id).not.toBe(there.lines[0]?.id);
  });

  it('property: re-importing any file, or any part of it, adds nothing; each row is one line', async () => {
    const cells = fc.array(fc.constantFrom('a', 'b', '1.00', '18/03/2025', ' a '), { minLength: 1, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(fc.array(cells, { maxLength: 25 }), fc.nat(), async (file, cut) => {
        const rows = file.map(row);
        const first = await planLineImport(CHECK, rows, new Set());
        const ids = new Set(first.lines.map((l) => l.id));
        expect(ids.size).toBe(rows.length);
        // The whole file again, or its first rows (a statement re-sent cut short): nothing new.
        const part = rows.slice(0, rows.length === 0 ? 0 : cut % (rows.length + 1));
        expect((await planLineImport(CHECK, rows, ids)).lines).toEqual([]);
        expect((await planLineImport(CHECK, part, ids)).lines).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});
