import { describe, expect, it } from 'vitest';
import { readLines, readStatementTable } from '@/core/statement-lines/read-lines';
import { suggestFormat } from '@/core/statement-lines/suggest-format';
import { createTestSyncHandle, TEST_USER_ID } from '@/testing/sync-handle';
import perParcelCsv from '@/core/statement-lines/fixtures/per-parcel.csv?raw';
import { deleteStatementLine, formatId, importStatementLines, saveTypedLine } from './commands';

const CHECK = { id: '0190a6e2-7c1d-7000-8000-000000000201', courierId: TEST_USER_ID };

function readFile() {
  const table = readStatementTable(perParcelCsv);
  const format = suggestFormat(table, CHECK.courierId);
  return { format, rows: readLines(table, format).rows };
}

describe('importing a statement file on the device', () => {
  it('stores the lines and the courier’s format with their outbox items, and the same file again adds nothing', async () => {
    const handle = createTestSyncHandle();
    const { format, rows } = readFile();
    const first = await importStatementLines(handle, CHECK, rows, format);
    expect(first.lines).toHaveLength(10);
    expect(await handle.db.statementLines.count()).toBe(10);
    expect(await handle.db.statementFormats.get(await formatId(CHECK.courierId, 'csv'))).toMatchObject({ bandColumn: 'Size', syncState: 'pending' });
    expect(await handle.db.outbox.count()).toBe(11);
    expect(handle.requestSync).toHaveBeenCalled();

    const again = await importStatementLines(handle, CHECK, rows, format);
    expect(again).toEqual({ lines: [], already: 10 });
    expect(await handle.db.statementLines.count()).toBe(10);
    expect(await handle.db.outbox.count()).toBe(11);
  });

  it('does not bring back a line the driver deleted, and keeps typed lines apart from imported ones', async () => {
    const handle = createTestSyncHandle();
    const { format, rows } = readFile();
    const { lines } = await importStatementLines(handle, CHECK, rows, format);
    await deleteStatementLine(handle, lines[0]!.id);
    const again = await importStatementLines(handle, CHECK, rows, format);
    expect(again.lines).toEqual([]);
    expect(await handle.db.statementLines.where('deleted').equals(0).count()).toBe(9);
    const typed = await saveTypedLine(handle, CHECK, { date: '2025-03-18', lineType: 'bonus', band: null, quantity: 1, rate: null, amount: 500, reference: 'Peak' });
    expect((await handle.db.statementLines.get(typed))?.lineKey).toMatch(/^typed:/);
  });
});
