import { entryFieldsBeforeCouriers } from '@/sync/default-courier';
import type { RecordWrite } from '@/sync/commands';
import type { RecordKind } from '@/sync/records';
import { makeCourier, makeDeduction, makeRateCard } from '@/testing/pay-fixtures';
import { emptyDevice } from '@/testing/device-records';
import { TEST_USER_ID } from '@/testing/sync-handle';
import { describe, expect, it } from 'vitest';
import { idsAreOurs, readJsonExport, type JsonImport } from './import-json';
import { planImport, type DeviceRecords } from '@/core/import/import-plan';
import { buildJsonExport, type JsonExport } from './json-export';

const stamps = { createdAt: '2025-03-02T08:00:00Z', updatedAt: '2025-03-02T08:00:00Z', deleted: 0 as const, syncState: 'synced' as const, server: null };

/** An export carrying one record or more of every kind, as a driver's device makes it. */
function fullExport(): JsonExport {
  const entry = (id: string, date: string) => ({ id, date, stops: 120, extra: 250, notes: 'Café "Zoë"', total: 22_030, ...entryFieldsBeforeCouriers(TEST_USER_ID), ...stamps });
  return buildJsonExport({
    accountId: TEST_USER_ID,
    profile: { displayName: 'Sam', email: null, bio: '', tiers: [{ rate: 150 }] },
    settings: { theme: 'light', taxRegion: 'scotland' },
    records: {
    entry: [entry('e1', '2025-03-03'), entry('e2', '2025-03-04'), { ...entry('e3', '2025-03-05'), courierId: 'evri', rateCardId: 'evri-card' }],
    invoice: [
      {
        id: 'i1',
        periodStart: '2025-03-02',
        periodEnd: '2025-03-08',
        paid: 60_000,
        stops: 360,
        reference: 'INV-9',
        courierId: 'evri',
        parcels: null,
        collections: null,
        deductions: 2_000,
        status: 'disputed',
        note: 'short',
        ...stamps,
      },
    ],
      courier: [makeCourier(TEST_USER_ID), makeCourier('evri', { name: 'Evri', colour: '#7a3cff' })],
      rateCard: [makeRateCard(TEST_USER_ID, TEST_USER_ID), makeRateCard('evri-card', 'evri', { perStop: null, perParcel: 45, peaks: [{ from: '2025-12-01', to: '2025-12-24', extraPerStop: 20, multiplierPercent: null }] })],
      deduction: [makeDeduction('van', 'evri')],
    expense: [{ id: 'x1', date: '2025-03-05', amount: 4_250, category: 'fuel', note: 'Diesel', courierId: null, vehicleId: 'van1', repeat: 'once', repeatUntil: null, receipts: ['r1'], ...stamps }],
    vehicle: [{ id: 'van1', name: 'Transit', type: 'carVan', method: 'flatRate', commuteMiles: 0, ...stamps }],
    statementLine: [
      { id: 'l1', invoiceId: 'i1', courierId: 'evri', lineKey: 'csv:ab12:0', date: '2025-03-05', lineType: 'parcel', band: 'small', quantity: 2, rate: 45, amount: 90, reference: 'EV1', ...stamps },
    ],
    statementFormat: [
      {
        id: 'f1', courierId: 'evri', source: 'csv', dateColumn: 'Date', dateOrder: 'dayMonthYear', amountColumn: 'Amount', typeColumn: null, bandColumn: null,
        quantityColumn: null, rateColumn: null, referenceColumn: null, defaultType: 'parcel', deductionsPositive: false, typeWords: [], ...stamps,
      },
    ],
    sentUpdate: [
      {
        id: 's1', taxYear: '2024-25', quarter: 4, quarters: 'standard', periodStart: '2024-04-06', periodEnd: '2025-04-05', shape: 'itemised', file: '{}',
        sha256: '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a', sentOn: '2025-04-20', product: 'Bridger', reference: 'HMRC-1', supersedes: null, ...stamps,
      },
    ],
    statementQuery: [
      {
        id: 'q1', statementCheckId: 'i1', madeOn: '2025-04-02', itemsVersion: 1, total: 45, sentOn: '2025-04-03', answeredOn: null,
        paidBackAmount: null, paidBackOn: null, paidBackCheckId: null, closedOn: null, note: '',
        items: [{ date: '2025-03-05', kind: 'fewerParcels', words: '1 parcel logged but not paid', logged: '3 parcels', paid: '2 parcels', cardRate: 45, amount: 45, hash: 'a'.repeat(64) }],
        ...stamps,
      },
    ],
    evidence: [
      {
        id: 'ev1', entryId: null, statementLineId: 'l1', statementQueryId: null, type: 'waiting', recordedAt: '2025-03-05T06:40:00.000Z', text: '',
        photoId: null, purpose: null, minutes: 55, place: 'Depot', fromWhom: '', ...stamps,
      },
    ],
    mileage: [{ id: 'm1', date: '2025-03-05', vehicleId: 'van1', courierId: 'evri', odometerStart: 10, odometerEnd: 90, businessMiles: 70, commuteMiles: 10, note: '', ...stamps }],
    fuelFill: [{ id: 'ff1', date: '2025-03-05', vehicleId: 'van1', unit: 'litres', quantity: 45_670, cost: 6_845, odometer: 90, full: true, note: '', ...stamps }],
    },
    from: '2025-03-01',
    to: '2025-03-31',
    exportedAt: '2025-04-01T10:00:00.000Z',
  });
}

function parsed(file: JsonExport | string): JsonImport {
  const result = readJsonExport(typeof file === 'string' ? file : JSON.stringify(file, null, 2));
  if ('error' in result) throw new Error(result.error);
  return result;
}

/** The device after the writes are stored. */
function withWrites(device: DeviceRecords, writes: readonly RecordWrite[]): DeviceRecords {
  const next = { ...device } as Record<RecordKind, unknown[]>;
  for (const write of writes) next[write.kind] = [...next[write.kind], { ...write.content, id: write.id, deleted: 0 }];
  return next as unknown as DeviceRecords;
}

/** The export's lists by kind, without timestamps: what a write carries. */
function contentsOf(file: JsonExport): Record<string, unknown[]> {
  const strip = (records: readonly object[]) => records.map(({ createdAt: _c, updatedAt: _u, ...rest }: { createdAt?: string; updatedAt?: string }) => rest);
  return {
    courier: strip(file.couriers),
    vehicle: strip(file.vehicles),
    rateCard: strip(file.rateCards),
    deduction: strip(file.deductions),
    entry: strip(file.entries),
    invoice: strip(file.invoices),
    expense: strip(file.expenses),
    mileage: strip(file.mileage),
    statementLine: strip(file.statementLines),
    statementFormat: strip(file.statementFormats),
    sentUpdate: strip(file.sentUpdates),
    fuelFill: strip(file.fuelFills),
    statementQuery: strip(file.statementQueries),
    evidence: strip(file.evidence),
  };
}

const noNewIds = () => {
  throw new Error('no new id expected');
};

describe('importing our JSON export', () => {
  it('round-trips every record of every kind, with its id, onto an empty device', () => {
    const file = fullExport();
    const plan = planImport(parsed(file), emptyDevice(), noNewIds);
    expect(plan.invalid).toEqual([]);
    expect(plan.duplicates).toEqual([]);
    expect(plan.added).toEqual({ courier: 2, vehicle: 1, rateCard: 2, deduction: 1, entry: 3, invoice: 1, expense: 1, mileage: 1, statementLine: 1, statementFormat: 1, sentUpdate: 1, fuelFill: 1, statementQuery: 1, evidence: 1 });
    const written: Record<string, unknown[]> = {};
    for (const write of plan.writes) (written[write.kind] ??= []).push({ id: write.id, ...write.content });
    expect(written).toEqual(contentsOf(file));
    // Pushed in order: nothing goes out before a record it points at.
    const kinds = plan.writes.map((w) => w.kind);
    expect(kinds.lastIndexOf('courier')).toBeLessThan(kinds.indexOf('rateCard'));
    expect(kinds.lastIndexOf('vehicle')).toBeLessThan(kinds.indexOf('mileage'));
    expect(kinds.lastIndexOf('vehicle')).toBeLessThan(kinds.indexOf('fuelFill'));
  });

  it('reads a deduction from a file made before deductions said what they were for as not said', () => {
    const file = fullExport();
    const old = JSON.parse(JSON.stringify(file)) as { deductions: Record<string, unknown>[] };
    for (const deduction of old.deductions) {
      delete deduction.purpose;
      delete deduction.vehicleId;
    }
    const plan = planImport(parsed(JSON.stringify(old)), emptyDevice(), noNewIds);
    expect(plan.invalid).toEqual([]);
    expect(plan.writes.find((w) => w.kind === 'deduction')?.content).toMatchObject({ label: 'Van hire', purpose: null, vehicleId: null });
  });

  it('writes nothing the second time: every record is a duplicate by its id', () => {
    const file = fullExport();
    const first = planImport(parsed(file), emptyDevice(), noNewIds);
    const second = planImport(parsed(file), withWrites(emptyDevice(), first.writes), noNewIds);
    expect(second.writes).toEqual([]);
    expect(second.duplicates).toHaveLength(18);
    expect(second.duplicates[0]).toEqual({ place: 'Courier 1', reason: 'The same courier (same id) is already on this device' });
  });

  it("maps another account's default courier and card onto this account's equal ones", () => {
    const file = fullExport();
    const device = emptyDevice();
    device.courier = [makeCourier('me')];
    device.rateCard = [makeRateCard('me', 'me')];
    const other = parsed(JSON.stringify(file).replaceAll(TEST_USER_ID, 'someone-else'));
    // Equal content needs the same courier: the card names it, and it is mapped first.
    const plan = planImport(other, device, noNewIds);
    expect(plan.invalid).toEqual([]);
    expect(plan.duplicates.map((d) => d.place)).toEqual(['Courier 1', 'Rate card 1']);
    const days = plan.writes.filter((w) => w.kind === 'entry').map((w) => w.content);
    expect(days.map((d) => [d.courierId, d.rateCardId])).toEqual([
      ['me', 'me'],
      ['me', 'me'],
      ['evri', 'evri-card'],
    ]);
  });

  it('gives a record deleted on this device a new id, and points its references at it', () => {
    const file = fullExport();
    const device = emptyDevice();
    device.vehicle = [{ id: 'van1', name: 'Old van', type: 'carVan', method: 'flatRate', commuteMiles: 0, deleted: 1 }];
    const plan = planImport(parsed(file), device, () => 'van-again');
    const vehicle = plan.writes.find((w) => w.kind === 'vehicle');
    expect(vehicle?.id).toBe('van-again');
    expect(plan.writes.find((w) => w.kind === 'mileage')?.content).toMatchObject({ vehicleId: 'van-again' });
    expect(plan.writes.find((w) => w.kind === 'expense')?.content).toMatchObject({ vehicleId: 'van-again' });
  });

  it('lists records that do not fit, or point at nothing, and imports the rest', () => {
    const file = fullExport() as unknown as Record<string, unknown[]>;
    (file.entries as Record<string, unknown>[])[1] = { ...(file.entries?.[1] as object), stops: 'many', date: '05/03/2025' };
    (file.entries as Record<string, unknown>[])[0] = { ...(file.entries?.[0] as object), date: '5 March' };
    file.vehicles = [];
    const plan = planImport(parsed(JSON.stringify(file)), emptyDevice(), noNewIds);
    expect(plan.invalid).toEqual([
      { place: 'Entry 1', reason: 'date: not a day (YYYY-MM-DD)' },
      { place: 'Entry 2', reason: expect.stringContaining('stops:') },
      { place: 'Expense 1', reason: 'Its vehicle is neither in the file nor on this device' },
      { place: 'Mileage log 1', reason: 'Its vehicle is neither in the file nor on this device' },
      { place: 'Fuel fill 1', reason: 'Its vehicle is neither in the file nor on this device' },
    ]);
    expect(plan.added.entry).toBe(1);
  });

  it('calls a well-written date that names no real day impossible, rather than importing it for the server to refuse', () => {
    const file = fullExport() as unknown as Record<string, unknown[]>;
    (file.entries as Record<string, unknown>[])[0] = { ...(file.entries?.[0] as object), date: '2026-11-31' };
    const plan = planImport(parsed(JSON.stringify(file)), emptyDevice(), noNewIds);
    expect(plan.invalid).toEqual([{ place: 'Entry 1', reason: 'date: 2026-11-31 does not exist (November 2026 has 30 days)' }]);
  });

  it('reads an export from before expenses, vehicles and mileage were in it', () => {
    const { expenses: _e, vehicles: _v, mileage: _m, fuelFills: _f, ...older } = fullExport();
    const plan = planImport(parsed(JSON.stringify(older)), emptyDevice(), noNewIds);
    expect(plan.invalid).toEqual([]);
    expect(plan.added).toMatchObject({ entry: 3, expense: 0, vehicle: 0, mileage: 0, fuelFill: 0 });
  });

  it("keeps the ids of this account's own export only", () => {
    expect(idsAreOurs(parsed(fullExport()), TEST_USER_ID)).toBe(true);
    expect(idsAreOurs(parsed(fullExport()), 'someone-else')).toBe(false);
    // An export from before the account was written in the file: the default courier has the account's id.
    const { accountId: _a, ...older } = fullExport();
    expect(idsAreOurs(parsed(JSON.stringify(older)), TEST_USER_ID)).toBe(true);
    expect(idsAreOurs(parsed(JSON.stringify(older)), 'someone-else')).toBe(false);
  });

  it("gives another account's records new ids, linked as in the file, and writes nothing the second time", () => {
    const file = fullExport();
    const device = emptyDevice();
    device.courier = [makeCourier('me')];
    device.rateCard = [makeRateCard('me', 'me')];
    let n = 0;
    const fresh = () => `fresh-${(n += 1)}`;
    const first = planImport(parsed(file), device, fresh, { keepIds: false });
    expect(first.invalid).toEqual([]);
    // The default courier and its card are this account's own, equal ones.
    expect(first.duplicates.map((d) => d.place)).toEqual(['Courier 1', 'Rate card 1']);
    const fileIds = new Set(JSON.stringify(file).match(/"id":"[^"]+"/g));
    for (const write of first.writes) expect(fileIds.has(`"id":"${write.id as string}"`)).toBe(false);
    const ids = (kind: RecordKind) => first.writes.filter((w) => w.kind === kind).map((w) => w.id);
    const [evri] = ids('courier');
    const [van] = ids('vehicle');
    expect(first.writes.filter((w) => w.kind === 'entry').map((w) => w.content.courierId)).toEqual(['me', 'me', evri]);
    expect(first.writes.find((w) => w.kind === 'entry' && w.content.courierId === evri)?.content).toMatchObject({ rateCardId: ids('rateCard')[0] });
    expect(first.writes.find((w) => w.kind === 'mileage')?.content).toMatchObject({ vehicleId: van, courierId: evri });
    expect(first.writes.find((w) => w.kind === 'fuelFill')?.content).toMatchObject({ vehicleId: van });
    // The photos stay with the account that took them.
    expect(first.writes.find((w) => w.kind === 'expense')?.content).toMatchObject({ vehicleId: van, receipts: [] });
    expect(first.writes.find((w) => w.kind === 'statementLine')?.content).toMatchObject({ invoiceId: ids('invoice')[0], courierId: evri });
    expect(first.writes.find((w) => w.kind === 'statementQuery')?.content).toMatchObject({ statementCheckId: ids('invoice')[0], paidBackCheckId: null });

    const second = planImport(parsed(file), withWrites(device, first.writes), fresh, { keepIds: false });
    expect(second.writes).toEqual([]);
    expect(second.duplicates).toHaveLength(18);
  });

  it('refuses a file that is not our export, or is from a newer version', () => {
    expect(readJsonExport('{ nope')).toEqual({ error: 'This is not a JSON file' });
    expect(readJsonExport('{"format":"other"}')).toEqual({ error: 'This JSON file is not a Delivery Tracker export' });
    expect(readJsonExport(JSON.stringify({ ...fullExport(), version: 99 }))).toEqual({
      error: 'This export was made by a newer version of Delivery Tracker: update the app and try again',
    });
  });
});
