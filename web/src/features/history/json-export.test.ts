import { entryFieldsBeforeCouriers, statementCheckFieldsBeforeCouriers } from '@/sync/default-courier';
import { makeCourier, makeDeduction, makeRateCard } from '@/testing/pay-fixtures';
import { TEST_USER_ID } from '@/testing/sync-handle';
import { describe, expect, it } from 'vitest';
import type { ExpenseContent, LocalEntry } from '@/sync/types';
import { buildJsonExport, jsonFileName, type ExportableStatementCheck, type JsonExportInput } from './json-export';

function localEntry(overrides: Partial<LocalEntry> = {}): LocalEntry {
  const content = { date: '2025-03-21', stops: 120, extra: 0, notes: '', total: 21_780, ...entryFieldsBeforeCouriers(TEST_USER_ID) };
  return {
    id: 'e1',
    ...content,
    createdAt: '2025-03-21T18:00:00Z',
    updatedAt: '2025-03-21T18:00:00Z',
    deleted: 0,
    syncState: 'pending',
    server: { ...content, version: 3 },
    ...overrides,
  };
}

// Shaped like the device's invoice records, sync bookkeeping included.
function localStatementCheck(overrides: Partial<ExportableStatementCheck> = {}): ExportableStatementCheck & { syncState: string; server: null } {
  return {
    id: 'i1',
    periodStart: '2025-03-01',
    periodEnd: '2025-03-07',
    paid: 100_000,
    stops: 600,
    reference: 'INV-1',
    ...statementCheckFieldsBeforeCouriers(TEST_USER_ID),
    createdAt: '2025-03-10T09:00:00Z',
    updatedAt: '2025-03-10T09:00:00Z',
    deleted: 0,
    syncState: 'synced',
    server: null,
    ...overrides,
  };
}

function input(overrides: Partial<JsonExportInput> = {}): JsonExportInput {
  return {
    accountId: TEST_USER_ID,
    // A ProfileView, with its sync state: that must not reach the file.
    profile: Object.assign(
      { displayName: 'Sam Driver', email: 'sam@example.com', bio: 'Van 2', tiers: [{ stopCount: 110, rate: 198 }, { rate: 148 }] },
      { photoURL: null, role: 'free', isAnonymous: false, syncState: 'pending' },
    ),
    settings: { theme: 'dark', taxRegion: 'scotland' },
    records: {},
    from: '2025-03-01',
    to: '2025-03-31',
    exportedAt: '2025-04-01T10:00:00.000Z',
    ...overrides,
  };
}

describe('JSON export', () => {
  it('describes itself: format, version, when, range and money unit', () => {
    expect(buildJsonExport(input())).toEqual({
      format: 'delivery-tracker-export',
      version: 1,
      exportedAt: '2025-04-01T10:00:00.000Z',
      accountId: TEST_USER_ID,
      range: { from: '2025-03-01', to: '2025-03-31' },
      moneyUnit: 'pence',
      profile: { displayName: 'Sam Driver', email: 'sam@example.com', bio: 'Van 2', paymentConfig: { tiers: [{ stopCount: 110, rate: 198 }, { rate: 148 }] } },
      settings: { theme: 'dark', taxRegion: 'scotland' },
      couriers: [],
      rateCards: [],
      deductions: [],
      entries: [],
      invoices: [],
      expenses: [],
      vehicles: [],
      mileage: [],
      statementLines: [],
      statementFormats: [],
      sentUpdates: [],
      fuelFills: [],
      statementQueries: [],
      evidence: [],
    });
  });

  it("keeps the lines of the statement checks it carries, and no one else's", () => {
    const stamps = { createdAt: '2025-03-09T08:00:00Z', updatedAt: '2025-03-09T08:00:00Z', deleted: 0 as const };
    const check = (id: string, periodStart: string, periodEnd: string): ExportableStatementCheck => ({
      id, periodStart, periodEnd, paid: 1_000, stops: null, reference: '', courierId: 'c', parcels: null, collections: null, deductions: null, status: 'unchecked', note: '', ...stamps,
    });
    const line = (id: string, invoiceId: string, deleted: 0 | 1 = 0) => ({
      id, invoiceId, courierId: 'c', lineKey: `typed:${id}`, date: '2025-03-03', lineType: 'stop' as const, band: null, quantity: 1, rate: 100, amount: 100, reference: '', ...stamps, deleted,
    });
    const result = buildJsonExport(
      input({
        records: {
          invoice: [check('in', '2025-03-02', '2025-03-08'), check('out', '2025-02-02', '2025-02-08')],
          statementLine: [line('l1', 'in'), line('l2', 'out'), line('l3', 'in', 1)],
        },
      }),
    );
    expect(result.statementLines.map((l) => l.id)).toEqual(['l1']);
    expect(result.statementLines[0]).not.toHaveProperty('deleted');
  });

  it('keeps live entries in the range (inclusive), oldest first, with their content and timestamps only', () => {
    const result = buildJsonExport(
      input({
        records: { entry: [
          localEntry({ id: 'late', date: '2025-03-31', notes: 'last day' }),
          localEntry({ id: 'before', date: '2025-02-28' }),
          localEntry({ id: 'after', date: '2025-04-01' }),
          localEntry({ id: 'gone', date: '2025-03-10', deleted: 1 }),
          localEntry({ id: 'b', date: '2025-03-01', createdAt: '2025-03-01T19:00:00Z' }),
          localEntry({ id: 'a', date: '2025-03-01', createdAt: '2025-03-01T08:00:00Z', extra: 250, total: 22_030 }),
        ] },
      }),
    );
    expect(result.entries.map((e) => e.id)).toEqual(['a', 'b', 'late']);
    expect(result.entries[0]).toEqual({
      id: 'a',
      date: '2025-03-01',
      stops: 120,
      extra: 250,
      notes: '',
      total: 22_030,
      ...entryFieldsBeforeCouriers(TEST_USER_ID),
      createdAt: '2025-03-01T08:00:00Z',
      updatedAt: '2025-03-21T18:00:00Z',
    });
  });

  it('keeps live statement checks that overlap the range by at least one day', () => {
    const result = buildJsonExport(
      input({
        records: { invoice: [
          localStatementCheck({ id: 'inside', periodStart: '2025-03-10', periodEnd: '2025-03-16' }),
          localStatementCheck({ id: 'ends-on-first-day', periodStart: '2025-02-23', periodEnd: '2025-03-01' }),
          localStatementCheck({ id: 'starts-on-last-day', periodStart: '2025-03-31', periodEnd: '2025-04-06' }),
          localStatementCheck({ id: 'covers-all', periodStart: '2025-01-01', periodEnd: '2025-12-31' }),
          localStatementCheck({ id: 'before', periodStart: '2025-02-16', periodEnd: '2025-02-28' }),
          localStatementCheck({ id: 'after', periodStart: '2025-04-01', periodEnd: '2025-04-07' }),
          localStatementCheck({ id: 'deleted', deleted: 1 }),
        ] },
      }),
    );
    expect(result.invoices.map((i) => i.id)).toEqual(['covers-all', 'ends-on-first-day', 'inside', 'starts-on-last-day']);
    expect(result.invoices[2]).toEqual({
      id: 'inside',
      periodStart: '2025-03-10',
      periodEnd: '2025-03-16',
      paid: 100_000,
      stops: 600,
      reference: 'INV-1',
    ...statementCheckFieldsBeforeCouriers(TEST_USER_ID),
      createdAt: '2025-03-10T09:00:00Z',
      updatedAt: '2025-03-10T09:00:00Z',
    });
  });

  it('lets nothing the device keeps for syncing leak into the file', () => {
    const result = buildJsonExport(input({ records: { entry: [localEntry()], invoice: [localStatementCheck()] } }));
    expect(Object.keys(result.entries[0] ?? {}).sort()).toEqual(
      ['bands', 'collections', 'courierId', 'createdAt', 'date', 'extra', 'failed', 'finishTime', 'id', 'notes', 'parcels', 'rateCardId', 'separateShift', 'startTime', 'stops', 'total', 'updatedAt'],
    );
    expect(Object.keys(result.invoices[0] ?? {}).sort()).toEqual(
      ['collections', 'courierId', 'createdAt', 'deductions', 'id', 'note', 'paid', 'parcels', 'periodEnd', 'periodStart', 'reference', 'status', 'stops', 'updatedAt'],
    );
    expect(Object.keys(result.profile).sort()).toEqual(['bio', 'displayName', 'email', 'paymentConfig']);
    const text = JSON.stringify(result, null, 2);
    for (const internal of ['syncState', 'server', 'deleted', 'pending', 'outbox', 'mutationId', 'patch', 'photoURL', 'isAnonymous']) {
      expect(text).not.toContain(internal);
    }
    // The tiers are copies: the caller's objects are not in the result.
    const profile = input().profile;
    expect(buildJsonExport(input({ profile })).profile.paymentConfig.tiers[0]).not.toBe(profile.tiers[0]);
  });

  it('carries every live courier, rate card and deduction whole, with content and timestamps only', () => {
    const evriCard = makeRateCard('evri-2025', 'evri', {
      validFrom: '2025-09-01',
      label: 'Autumn',
      perStop: null,
      perParcel: 45,
      parcelCapPerStop: 3,
      perCollection: 30,
      perFailed: 0,
      peaks: [{ from: '2025-12-01', to: '2025-12-24', extraPerStop: 20, multiplierPercent: null }],
    });
    const result = buildJsonExport(
      input({
        records: {
          courier: [makeCourier('evri', { name: 'Evri', colour: '#7a3cff' }), makeCourier(TEST_USER_ID), { ...makeCourier('gone'), deleted: 1 }],
          rateCard: [evriCard, makeRateCard('evri-first', 'evri'), { ...makeRateCard('old', 'evri'), deleted: 1 }],
          // A van hire from before the range still nets pay inside it: the setup is exported whole.
          deduction: [makeDeduction('van', TEST_USER_ID, { from: '2024-06-03' })],
        },
      }),
    );
    expect(result.couriers.map((c) => c.id).sort()).toEqual([TEST_USER_ID, 'evri'].sort());
    expect(result.couriers.find((c) => c.id === 'evri')).toEqual({
      id: 'evri',
      name: 'Evri',
      colour: '#7a3cff',
      periodKind: 'weekly',
      periodAnchor: '2000-01-02',
      arrearsWeeks: 0,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    });
    expect(result.rateCards.map((c) => c.id)).toEqual(['evri-first', 'evri-2025']);
    expect(result.rateCards[1]).toEqual({
      id: 'evri-2025',
      courierId: 'evri',
      validFrom: '2025-09-01',
      label: 'Autumn',
      perStop: null,
      perParcel: 45,
      parcelCapPerStop: 3,
      perCollection: 30,
      perFailed: 0,
      dayRate: null,
      hourly: null,
      peaks: [{ from: '2025-12-01', to: '2025-12-24', extraPerStop: 20, multiplierPercent: null }],
      bandRates: null,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    });
    expect(result.rateCards[0]?.perStop).toEqual([{ stopCount: 110, rate: 198 }, { rate: 148 }]);
    expect(result.deductions).toEqual([
      {
        id: 'van',
        courierId: TEST_USER_ID,
        label: 'Van hire',
        amount: 20_000,
        repeat: 'weekly',
        from: '2024-06-03',
        to: null,
        purpose: null,
        vehicleId: null,
        createdAt: '2025-01-01T00:00:00.000Z',
        updatedAt: '2025-01-01T00:00:00.000Z',
      },
    ]);
    const text = JSON.stringify(result);
    for (const internal of ['syncState', 'server', 'deleted']) expect(text).not.toContain(internal);
  });

  it('carries the expenses charged in the range, every live vehicle and the mileage logs in the range', () => {
    const stamps = { createdAt: '2025-03-02T08:00:00Z', updatedAt: '2025-03-02T08:00:00Z', deleted: 0 as const, syncState: 'synced', server: null };
    const expense = (id: string, content: Partial<ExpenseContent>) => ({
      id,
      date: '2025-03-05',
      amount: 4_250,
      category: 'fuel' as const,
      note: 'Diesel',
      courierId: null,
      vehicleId: 'van',
      repeat: 'once' as const,
      repeatUntil: null,
      receipts: ['r1'],
      ...stamps,
      ...content,
    });
    const mileage = (id: string, date: string, deleted: 0 | 1 = 0) => ({
      id,
      date,
      vehicleId: 'van',
      courierId: TEST_USER_ID,
      odometerStart: 1_000,
      odometerEnd: 1_080,
      businessMiles: 70,
      commuteMiles: 10,
      note: '',
      ...stamps,
      deleted,
    });
    const result = buildJsonExport(
      input({
        records: {
        expense: [
          expense('fuel', {}),
          expense('before', { date: '2025-02-27' }),
          expense('phone', { date: '2024-11-01', repeat: 'monthly', category: 'phone', vehicleId: null }),
          expense('ended', { date: '2024-11-01', repeat: 'monthly', repeatUntil: '2025-02-01' }),
          expense('after', { date: '2025-04-01' }),
          { ...expense('gone', {}), deleted: 1 },
        ],
        vehicle: [
          { id: 'van', name: 'Transit', type: 'carVan', method: 'flatRate', commuteMiles: 0, ...stamps },
          { id: 'old', name: 'Bike', type: 'bicycle', method: 'flatRate', commuteMiles: 0, ...stamps, deleted: 1 },
        ],
        mileage: [mileage('m1', '2025-03-05'), mileage('m0', '2025-02-28'), mileage('m2', '2025-03-06', 1)],
        },
      }),
    );
    expect(result.expenses.map((e) => e.id)).toEqual(['phone', 'fuel']);
    expect(result.expenses[1]).toEqual({
      id: 'fuel',
      date: '2025-03-05',
      amount: 4_250,
      category: 'fuel',
      note: 'Diesel',
      courierId: null,
      vehicleId: 'van',
      repeat: 'once',
      repeatUntil: null,
      receipts: ['r1'],
      createdAt: '2025-03-02T08:00:00Z',
      updatedAt: '2025-03-02T08:00:00Z',
    });
    expect(result.vehicles).toEqual([{ id: 'van', name: 'Transit', type: 'carVan', method: 'flatRate', commuteMiles: 0, createdAt: '2025-03-02T08:00:00Z', updatedAt: '2025-03-02T08:00:00Z' }]);
    expect(result.mileage).toEqual([
      {
        id: 'm1',
        date: '2025-03-05',
        vehicleId: 'van',
        courierId: TEST_USER_ID,
        odometerStart: 1_000,
        odometerEnd: 1_080,
        businessMiles: 70,
        commuteMiles: 10,
        note: '',
        createdAt: '2025-03-02T08:00:00Z',
        updatedAt: '2025-03-02T08:00:00Z',
      },
    ]);
    const text = JSON.stringify(result);
    for (const internal of ['syncState', 'server', 'deleted']) expect(text).not.toContain(internal);
  });

  it('survives a JSON round trip unchanged', () => {
    const result = buildJsonExport(input({ records: { entry: [localEntry({ notes: 'Café "Zoë" 🎉\nline 2' })], invoice: [localStatementCheck({ stops: null })] } }));
    expect(JSON.parse(JSON.stringify(result, null, 2))).toEqual(result);
  });

  it('names the file after the range', () => {
    expect(jsonFileName('2025-01-01', '2025-03-31')).toBe('delivery-tracker-2025-01-01-to-2025-03-31.json');
  });
});
