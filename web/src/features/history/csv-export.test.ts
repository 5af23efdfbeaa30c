import { describe, expect, it } from 'vitest';
import { penceToPounds } from '@/core/money/money';
import { entryFieldsBeforeCouriers } from '@/sync/default-courier';
import { csvFileName, entriesToCsv, type CsvEntry } from './csv-export';
import { parseCsv } from '@/lib/csv-parse';

const USER = 'user-1';
const HEADER = [
  'Date',
  'Courier',
  'Stops',
  'Parcels',
  'Collections',
  'Failed/returned',
  'Start',
  'Finish',
  'Extra (£)',
  'Total (£)',
  'Notes',
  'Separate shift',
  'Courier ID',
  'Rate card ID',
];
/** Where a column is, by its header. */
const col = (name: string) => HEADER.indexOf(name);
const COURIERS = [{ id: USER, name: 'My courier' }];
/** What follows the notes on every row of a day of the default courier priced by its first card (no separate shift). */
const IDS = `,,${USER},${USER}\r\n`;

const entry = (overrides: Partial<CsvEntry> = {}): CsvEntry => ({
  date: '2025-03-21',
  stops: 120,
  extra: 0,
  notes: '',
  total: 21_780,
  ...entryFieldsBeforeCouriers(USER),
  ...overrides,
});

/** The file read back as a spreadsheet would: BOM checked and stripped, then RFC 4180. */
function readBack(csv: string): string[][] {
  expect(csv.startsWith('\uFEFF')).toBe(true);
  return parseCsv(csv.slice(1));
}

const notesOf = (notes: string) => readBack(entriesToCsv([entry({ notes })]))[1]?.[col('Notes')];

describe('CSV export', () => {
  it('starts with a BOM and the header, and has only a header with no entries', () => {
    const csv = entriesToCsv([]);
    expect(csv).toBe('\uFEFFDate,Courier,Stops,Parcels,Collections,Failed/returned,Start,Finish,Extra (£),Total (£),Notes,Separate shift,Courier ID,Rate card ID\r\n');
    expect(readBack(csv)).toEqual([HEADER]);
  });

  it('writes one row per entry, oldest first, en-GB dates and plain pounds', () => {
    const csv = entriesToCsv(
      [
        entry({ date: '2025-03-21', stops: 120, extra: 250, total: 22_030, notes: 'Rain' }),
        entry({ date: '2024-12-31', stops: 95, extra: 0, total: 18_810 }),
      ],
      COURIERS,
    );
    expect(readBack(csv)).toEqual([
      HEADER,
      ['31/12/2024', 'My courier', '95', '', '', '', '', '', '0.00', '188.10', '', '', USER, USER],
      ['21/03/2025', 'My courier', '120', '', '', '', '', '', '2.50', '220.30', 'Rain', '', USER, USER],
    ]);
  });

  it('ends every line with CRLF and has no bare line feeds outside quoted notes', () => {
    const csv = entriesToCsv([entry(), entry({ date: '2025-03-22' })]);
    expect(csv.split('\r\n')).toHaveLength(4); // header, two rows, and the empty tail after the last CRLF
    expect(csv.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
  });

  it('keeps entries on the same day in the order they were made', () => {
    const csv = entriesToCsv([
      entry({ notes: 'second', createdAt: '2025-03-21T15:00:00Z' }),
      entry({ notes: 'first', createdAt: '2025-03-21T08:00:00Z' }),
    ]);
    expect(readBack(csv).slice(1).map((row) => row[col('Notes')])).toEqual(['first', 'second']);
  });

  it('leaves out deleted entries and does not reorder the caller’s array', () => {
    const entries = [entry({ date: '2025-03-22', notes: 'kept' }), entry({ date: '2025-03-21', notes: 'gone', deleted: 1 })];
    expect(readBack(entriesToCsv(entries)).slice(1).map((row) => row[col('Notes')])).toEqual(['kept']);
    expect(entries.map((e) => e.notes)).toEqual(['kept', 'gone']);
  });

  it('writes money as pounds with two decimals from integer pence', () => {
    expect([0, 1, 199, 1_234_567].map(penceToPounds)).toEqual(['0.00', '0.01', '1.99', '12345.67']);
    expect(penceToPounds(-150)).toBe('-1.50');
    const rows = readBack(entriesToCsv([0, 1, 199, 1_234_567].map((pence, i) => entry({ date: `2025-01-0${i + 1}`, extra: pence, total: pence }))));
    expect(rows.slice(1).map((row) => [row[col('Extra (£)')], row[col('Total (£)')]])).toEqual([
      ['0.00', '0.00'],
      ['0.01', '0.01'],
      ['1.99', '1.99'],
      ['12345.67', '12345.67'],
    ]);
  });

  it('quotes notes with commas, quotes and line breaks, doubling inner quotes', () => {
    expect(entriesToCsv([entry({ notes: 'Van 2, route B' })])).toContain(`,"Van 2, route B"${IDS}`);
    expect(entriesToCsv([entry({ notes: 'Said "thanks"' })])).toContain(`,"Said ""thanks"""${IDS}`);
    for (const notes of ['Van 2, route B', 'Said "thanks"', '"', '""', 'a,"b",c', 'line one\nline two', 'line one\r\nline two', 'ends with CR\r', '\n']) {
      expect(notesOf(notes)).toBe(notes);
    }
  });

  it('leaves plain notes unquoted', () => {
    expect(entriesToCsv([entry({ notes: 'Quiet day' })])).toContain(`,Quiet day${IDS}`);
  });

  it.each(['=', '+', '-', '@', '\t', '\r'])('neutralises a note starting with %j against formula injection', (start) => {
    const notes = `${start}HYPERLINK("http://example.com","x")`;
    expect(notesOf(notes)).toBe(`'${notes}`);
  });

  it('neutralises formulas and then still quotes what needs quoting', () => {
    expect(entriesToCsv([entry({ notes: '=SUM(A1,A2)' })])).toContain(`,"'=SUM(A1,A2)"${IDS}`);
    expect(entriesToCsv([entry({ notes: '-2 parcels' })])).toContain(`,'-2 parcels${IDS}`);
    expect(notesOf('\r\n=1+1')).toBe(`'\r\n=1+1`);
  });

  it.each([' =1+1', '\n=1+1', '\u00a0=1+1', '\u200b=1+1', '\ufeff@SUM(A1)', '  \u2060+44', '＝1+1', '＋44 7700', '－5', '＠A1', ' ＝1'])(
    'neutralises a formula behind leading whitespace or invisible characters, or with a full-width sign: %j',
    (notes) => {
      expect(notesOf(notes)).toBe(`'${notes}`);
    },
  );

  it('does not touch characters that only look risky in the middle of a note', () => {
    expect(notesOf('a=b+c-d@e')).toBe('a=b+c-d@e');
    expect(notesOf(" 'quoted'")).toBe(" 'quoted'");
  });

  it('keeps unicode and emoji as they are', () => {
    for (const notes of ['£5 tip 🎉', 'Café Zoë, façade', '日本語', '👨‍👩‍👧 family']) expect(notesOf(notes)).toBe(notes);
  });
});

describe('CSV export of couriers and the optional counts', () => {
  it('names each day’s courier and card, and writes counts and times, leaving out what was not recorded', () => {
    const rows = readBack(
      entriesToCsv(
        [
          entry({ date: '2025-03-20', courierId: 'evri', rateCardId: 'evri-2025', parcels: 140, collections: 0, failed: 2, startTime: '07:30', finishTime: '16:05' }),
          entry({ date: '2025-03-21', rateCardId: null, extra: 500, total: 500 }),
          entry({ date: '2025-03-21', rateCardId: null, extra: 700, total: 700, separateShift: true }),
        ],
        [...COURIERS, { id: 'evri', name: 'Evri' }],
      ),
    );
    expect(rows.slice(1)).toEqual([
      ['20/03/2025', 'Evri', '120', '140', '0', '2', '07:30', '16:05', '0.00', '217.80', '', '', 'evri', 'evri-2025'],
      ['21/03/2025', 'My courier', '120', '', '', '', '', '', '5.00', '5.00', '', '', USER, ''],
      // A deliberate extra shift says so, so reading the file back keeps it.
      ['21/03/2025', 'My courier', '120', '', '', '', '', '', '7.00', '7.00', '', 'yes', USER, ''],
    ]);
  });

  it('leaves the name empty for a courier it does not know, and neutralises a name that looks like a formula', () => {
    const rows = readBack(entriesToCsv([entry({ courierId: 'gone' }), entry({ date: '2025-03-22', courierId: 'odd' })], [{ id: 'odd', name: '=cmd|x' }]));
    expect(rows.slice(1).map((row) => [row[col('Courier')], row[col('Courier ID')]])).toEqual([
      ['', 'gone'],
      ["'=cmd|x", 'odd'],
    ]);
  });
});

describe('the CSV reader used by these tests', () => {
  it('rejects what RFC 4180 does not allow', () => {
    expect(() => parseCsv('a,"b\r\n')).toThrow(/unterminated/);
    expect(() => parseCsv('a,b"c\r\n')).toThrow(/quote inside/);
    expect(() => parseCsv('a\nb\r\n')).toThrow(/CRLF/);
    expect(() => parseCsv('"a"b\r\n')).toThrow(/CRLF/);
  });

  it('reads empty fields and a last line without CRLF', () => {
    expect(parseCsv('a,,\r\n,b')).toEqual([['a', '', ''], ['', 'b']]);
  });
});

describe('CSV file name', () => {
  it('names the range', () => {
    expect(csvFileName('2025-01-01', '2025-03-31')).toBe('delivery-tracker-2025-01-01-to-2025-03-31.csv');
  });
});
