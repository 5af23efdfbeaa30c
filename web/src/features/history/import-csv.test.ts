import { makeCourier } from '@/testing/pay-fixtures';
import { TEST_USER_ID } from '@/testing/sync-handle';
import { describe, expect, it } from 'vitest';
import { entriesToCsv, type CsvEntry } from './csv-export';
import { csvEntries, dayReading, detectDelimiter, readCsvTable, type CsvContext } from './import-csv-entries';
import { detectLayout, emptyMapping, mappingFor, mappingProblem } from './import-csv-layouts';
import { planImport, type DeviceRecords } from '@/core/import/import-plan';

const context: CsvContext = {
  couriers: [
    { id: TEST_USER_ID, name: 'My courier' },
    { id: 'evri', name: 'Evri' },
  ],
  cards: new Map([
    ['evri-card', 'evri'],
    [TEST_USER_ID, TEST_USER_ID],
  ]),
  defaultCourierId: TEST_USER_ID,
};

/** A device with the default courier and no days. */
function newDevice(): DeviceRecords {
  return { courier: [makeCourier(TEST_USER_ID)], vehicle: [], rateCard: [], deduction: [], entry: [], invoice: [], expense: [], mileage: [], statementLine: [], statementFormat: [], sentUpdate: [], fuelFill: [], statementQuery: [], evidence: [] };
}

function read(text: string) {
  const table = readCsvTable(text);
  const layout = detectLayout(table.header);
  return { table, layout, parsed: csvEntries(table, mappingFor(layout, table.header), layout, context) };
}

describe("the original app's CSV (Date, Stops, Extra, Total)", () => {
  it('is recognised and read as days of the default courier, the total kept exactly as written', () => {
    const { layout, parsed } = read('Date,Stops,Extra,Total\n21/03/2025,120,2.50,220.30\n2025-03-22,95,,£180.00\n');
    expect(layout).toBe('original');
    expect(parsed.invalid).toEqual([]);
    expect(parsed.candidates).toEqual([
      {
        kind: 'entry',
        id: null,
        place: 'Row 2',
        content: {
          date: '2025-03-21',
          stops: 120,
          extra: 250,
          // 120 stops at today's default tiers would be another amount: the file's total stands.
          total: 22_030,
          notes: '',
          courierId: TEST_USER_ID,
          rateCardId: null,
          parcels: null,
          collections: null,
          failed: null,
          startTime: null,
          finishTime: null,
          separateShift: false,
          bands: null,
        },
      },
      expect.objectContaining({ place: 'Row 3', content: expect.objectContaining({ date: '2025-03-22', stops: 95, extra: 0, total: 18_000 }) }),
    ]);
  });

  it('lists every bad row with its row number and every reason, and keeps the good ones', () => {
    const text = [
      'Date,Stops,Extra,Total',
      '21/03/2025,120,0,220.00',
      '31/02/2025,120,0,220.00',
      '22/03/2025,lots,0,220.00',
      '',
      '23/03/2025,100,-3,',
      '24/03/2025,100,0,100.123',
      '25/03/2025,80,1,150',
    ].join('\r\n');
    const { parsed } = read(text);
    expect(parsed.candidates.map((c) => c.place)).toEqual(['Row 2', 'Row 8']);
    expect(parsed.invalid).toEqual([
      { place: 'Row 3', reason: 'Date "31/02/2025" does not exist: February 2025 has 28 days' },
      { place: 'Row 4', reason: 'Stops must be a whole number from 0 to 1000' },
      { place: 'Row 6', reason: 'Extra must be an amount in pounds, like 12.50; Total is missing' },
      { place: 'Row 7', reason: 'Total must be an amount in pounds, like 120.50' },
    ]);
    // Nothing is dropped: every data row is either a record or a listed problem.
    expect(parsed.candidates.length + parsed.invalid.length).toBe(6);
  });
});

describe('our own CSV export', () => {
  const day = (overrides: Partial<CsvEntry>): CsvEntry => ({
    date: '2025-03-21',
    stops: 120,
    extra: 250,
    notes: '',
    total: 22_030,
    courierId: TEST_USER_ID,
    rateCardId: TEST_USER_ID,
    parcels: null,
    collections: null,
    failed: null,
    startTime: null,
    finishTime: null,
    separateShift: false,
    bands: null,
    ...overrides,
  });

  it('round-trips every field of every day, formula-looking notes and quotes included', () => {
    const days = [
      day({}),
      day({ date: '2025-03-22', courierId: 'evri', rateCardId: 'evri-card', parcels: 140, collections: 3, failed: 2, startTime: '08:00', finishTime: '17:30', notes: '=SUM(A1) "Café", line\n2' }),
      day({ date: '2025-03-23', rateCardId: null, notes: '-5 parking' }),
      day({ date: '2025-03-23', rateCardId: null, stops: 30, total: 5_940, separateShift: true }),
      day({ date: '2025-03-24', rateCardId: null, notes: ' ＝1+1 and \u200b=2' }),
      day({ date: '2025-03-25', rateCardId: null, notes: "'already quoted" }),
    ];
    const { layout, parsed } = read(entriesToCsv(days, context.couriers));
    expect(layout).toBe('ours');
    expect(parsed.invalid).toEqual([]);
    expect(parsed.candidates.map((c) => c.content)).toEqual(days);
  });

  it('still reads our export from before shifts (no Separate shift column), its days not shifts', () => {
    const now = entriesToCsv([day({ notes: 'older file' })], context.couriers);
    const before = now.replace(',Separate shift,', ',').replace(/,older file,,/, ',older file,');
    expect(before.split('\r\n')[0]).not.toContain('Separate shift');
    const { layout, parsed } = read(before);
    expect(layout).toBe('ours');
    expect(parsed.candidates.map((c) => c.content)).toEqual([day({ notes: 'older file' })]);
  });

  it('marks a shift only from our own file: another file’s second row for a day stays a duplicate', () => {
    const generic = read('Date,Stops,Total,Separate shift\n21/03/2025,100,198.00,yes\n');
    expect(generic.parsed.candidates.map((c) => 'separateShift' in c.content && c.content.separateShift)).toEqual([false]);
  });

  it('drops a rate card that is not on the device (the total still stands) and refuses an unknown courier', () => {
    const csv = entriesToCsv([day({ rateCardId: 'gone-card' }), day({ date: '2025-03-24', courierId: 'dpd', rateCardId: null })], [{ id: 'dpd', name: 'DPD' }]);
    const { parsed } = read(csv);
    expect(parsed.candidates.map((c) => c.content)).toEqual([day({ rateCardId: null })]);
    expect(parsed.invalid).toEqual([{ place: 'Row 3', reason: 'No courier named "DPD": add it under Settings → Couriers first' }]);
  });
});

describe('a generic CSV with the mapping step', () => {
  const sheet = ['Company,Drops,When,Pay,Bonus,Comment', 'evri,110,2025-03-03,200.00,5,wet', 'Evri,90,04/03/2025,160,,', 'Yodel,80,05/03/2025,150,,'].join('\n');

  it('knows common header words, whatever their case, spaces or currency', () => {
    expect(mappingFor('generic', ['Work day', 'Paid (GBP)', 'Extra (£)', 'NOTES'])).toEqual({ ...emptyMapping(), date: 0, total: 1, extra: 2, notes: 3 });
  });

  it('guesses the columns it can from the header and leaves the rest to the driver', () => {
    const { table, layout } = read(sheet);
    expect(layout).toBe('generic');
    const guess = mappingFor('generic', table.header);
    expect(guess).toEqual({ ...emptyMapping(), courier: 0, stops: 1, total: 3, extra: 4, notes: 5 });
    expect(mappingProblem(guess)).toBe('Choose a column for Date');
    expect(mappingProblem({ ...guess, date: 3 })).toBe('Each column can be used for one field only');
    expect(mappingProblem({ ...guess, date: 2 })).toBeNull();
  });

  it('reads the rows through the mapping, matching courier names without case', () => {
    const table = readCsvTable(sheet);
    const mapping = { ...mappingFor('generic', table.header), date: 2 };
    const parsed = csvEntries(table, mapping, 'generic', context);
    expect(parsed.candidates.map((c) => c.content)).toEqual([
      expect.objectContaining({ date: '2025-03-03', courierId: 'evri', stops: 110, total: 20_000, extra: 500, notes: 'wet', rateCardId: null }),
      expect.objectContaining({ date: '2025-03-04', courierId: 'evri', stops: 90, total: 16_000, extra: 0, notes: '' }),
    ]);
    expect(parsed.invalid).toEqual([{ place: 'Row 4', reason: 'No courier named "Yodel": add it under Settings → Couriers first' }]);
  });

  it('refuses an empty or broken file as a whole', () => {
    expect(() => readCsvTable('')).toThrow('The file is empty');
    expect(() => readCsvTable('a,b\n"unterminated')).toThrow(/Malformed CSV/);
  });
});

describe('CSV dialects', () => {
  const days = (text: string, order?: 'dmy' | 'mdy') => {
    const table = readCsvTable(text);
    const layout = detectLayout(table.header);
    const parsed = csvEntries(table, mappingFor(layout, table.header), layout, context, order);
    return { table, parsed, reading: dayReading(table, mappingFor(layout, table.header), layout) };
  };
  const summary = (parsed: ReturnType<typeof days>['parsed']) => parsed.candidates.map((c) => 'extra' in c.content && [c.content.date, c.content.extra, c.content.total]);

  it('finds the separator on the header line, quotes aside', () => {
    expect(detectDelimiter('Date;Stops;Extra;Total\n1;2;3,5;4')).toBe(';');
    expect(detectDelimiter('Date\tStops\tTotal\n')).toBe('\t');
    expect(detectDelimiter('"Pay; in £",Date,Stops\n')).toBe(',');
    expect(detectDelimiter('Date\n')).toBe(',');
  });

  it('reads a ;-separated file with decimal-comma amounts', () => {
    const { table, parsed } = days('Date;Stops;Extra;Total\r\n21/03/2025;120;2,50;1.220,30\r\n22/03/2025;95;;180\r\n23/03/2025;90;0;2.345\r\n24/03/2025;90;0;12,505\r\n');
    expect(table.delimiter).toBe(';');
    expect(summary(parsed)).toEqual([
      ['2025-03-21', 250, 122_030],
      ['2025-03-22', 0, 18_000],
      // A point between groups of three is thousands in such a file.
      ['2025-03-23', 0, 234_500],
    ]);
    // Three decimals are never rounded; the message shows the file's own form.
    expect(parsed.invalid).toEqual([{ place: 'Row 5', reason: 'Total must be an amount in pounds, like 120,50' }]);
  });

  it('reads a tab-separated file', () => {
    const { table, parsed } = days('Date\tStops\tExtra\tTotal\n21/03/2025\t120\t2.50\t220.30\n');
    expect(table.delimiter).toBe('\t');
    expect(summary(parsed)).toEqual([['2025-03-21', 250, 22_030]]);
  });

  it('reads US dates when one can only be month first, and UK ones by default', () => {
    const us = days('Date,Stops,Extra,Total\n01/31/2026,100,0,200\n02/01/2026,100,0,200\n');
    expect(us.reading).toEqual({ order: 'mdy', settled: true, yearLast: true });
    expect(summary(us.parsed)).toEqual([
      ['2026-01-31', 0, 20_000],
      ['2026-02-01', 0, 20_000],
    ]);
    const ambiguous = days('Date,Stops,Extra,Total\n02/01/2026,100,0,200\n');
    expect(ambiguous.reading).toEqual({ order: 'dmy', settled: false, yearLast: true });
    expect(summary(ambiguous.parsed)).toEqual([['2026-01-02', 0, 20_000]]);
    // The driver's switch reads the same file month first.
    expect(summary(days('Date,Stops,Extra,Total\n02/01/2026,100,0,200\n', 'mdy').parsed)).toEqual([['2026-02-01', 0, 20_000]]);
    // Read month first, a day-first date is listed with the form the reading expects.
    expect(days('Date,Stops,Extra,Total\n31/01/2026,100,0,200\n', 'mdy').parsed.invalid).toEqual([{ place: 'Row 2', reason: 'Date "31/01/2026" is not mm/dd/yyyy or yyyy-mm-dd' }]);
  });

  it('reads our own export day first whatever its dates look like', () => {
    const csv = entriesToCsv([{ date: '2025-02-01', stops: 1, extra: 0, notes: '', total: 100, courierId: TEST_USER_ID, rateCardId: null, parcels: null, collections: null, failed: null, startTime: null, finishTime: null, separateShift: false, bands: null }], context.couriers);
    const { reading, parsed } = days(csv);
    expect(reading.order).toBe('dmy');
    expect(parsed.candidates.map((c) => 'date' in c.content && c.content.date)).toEqual(['2025-02-01']);
  });
});

describe('importing the same CSV twice', () => {
  it('writes every new day once; the second time every row is a duplicate (same courier and date)', () => {
    const file = 'Date,Stops,Extra,Total\n21/03/2025,120,0,220.00\n21/03/2025,100,0,180.00\n22/03/2025,90,0,160.00\n';
    let n = 0;
    const first = planImport(read(file).parsed, newDevice(), () => `new-${(n += 1)}`);
    expect(first.added.entry).toBe(2);
    expect(first.duplicates).toEqual([{ place: 'Row 3', reason: 'A day for this courier on this date is earlier in the file' }]);

    const device = newDevice();
    device.entry = first.writes.map((write) => ({ ...(write.content as (typeof device.entry)[number]), id: write.id as string, deleted: 0 as const }));
    const second = planImport(read(file).parsed, device, () => `new-${(n += 1)}`);
    expect(second.writes).toEqual([]);
    expect(second.duplicates.map((d) => d.place)).toEqual(['Row 2', 'Row 3', 'Row 4']);
    expect(second.duplicates[0]?.reason).toBe('An equal day is already on this device');
    expect(second.duplicates[1]?.reason).toBe('A day for this courier on this date is already on this device');
  });
});
