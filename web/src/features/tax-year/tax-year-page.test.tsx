import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatPence } from '@/lib/format';
import { sha256Hex } from '@/core/mtd/sha256';
import { incomeTax } from '@/core/tax/income-tax';
import { taxYearRates } from '@/core/tax/tax-year';
import type { LocalExpense, LocalMileage, LocalSentUpdate, LocalVehicle } from '@/sync/types';
import { makeCourier } from '@/testing/pay-fixtures';
import { renderWithSync } from '@/testing/render-with-sync';
import { createTestSyncHandle, makeEntry, type TestSyncHandle } from '@/testing/sync-handle';
import { TaxYearPage } from './tax-year-page';

const stamp = '2026-01-01T00:00:00.000Z';
const synced = { createdAt: stamp, updatedAt: stamp, deleted: 0 as const, syncState: 'synced' as const, server: null };

/** The terms of a <dl> of figures, in order. */
function labels(list: string): string[] {
  return [...document.querySelectorAll(`dl[aria-label="${list}"] dt`)].map((term) => term.textContent ?? '');
}

function figure(list: string, label: string): string {
  // A <dl> has no ARIA role to find it by: its label names it.
  const group = document.querySelector<HTMLElement>(`dl[aria-label="${list}"]`);
  if (!group) throw new Error(`no figures ${list}`);
  const term = within(group).getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? '';
}

async function seed(handle: TestSyncHandle) {
  const db = handle.db;
  await db.couriers.put(makeCourier(db.userId, { name: 'Evri' }));
  await db.entries.bulkPut([
    makeEntry({ id: 'old', date: '2026-04-05', total: 500_000, courierId: db.userId }),
    makeEntry({ id: 'new-1', date: '2026-04-06', total: 2_000_000, courierId: db.userId }),
    makeEntry({ id: 'new-2', date: '2026-05-01', total: 1_000_000, courierId: db.userId }),
  ]);
  const van: LocalVehicle = { id: 'van', name: 'Van', type: 'carVan', method: 'flatRate', commuteMiles: 0, ...synced };
  await db.vehicles.put(van);
  const fuel: LocalExpense = { id: 'fuel', date: '2026-04-20', amount: 8_000, category: 'fuel', note: '', courierId: null, vehicleId: 'van', repeat: 'once', repeatUntil: null, receipts: [], ...synced };
  const phone: LocalExpense = { ...fuel, id: 'phone', category: 'phone', vehicleId: null, amount: 150_000 };
  await db.expenses.bulkPut([fuel, phone]);
  const trip: LocalMileage = { id: 'trip', date: '2026-04-21', vehicleId: 'van', courierId: null, odometerStart: null, odometerEnd: null, businessMiles: 1_000, commuteMiles: 0, note: '', ...synced };
  await db.mileage.put(trip);
}

describe('TaxYearPage', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-05-20T12:00:00'));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('opens on the current tax year with its figures, the disclaimer, and earlier years to pick', async () => {
    const handle = createTestSyncHandle();
    await seed(handle);
    const { user } = renderWithSync(<TaxYearPage />, { handle, path: '/app/tax' });

    expect(await screen.findByRole('heading', { name: 'Set aside for 2026–27' })).toBeInTheDocument();
    expect(screen.getByText('This is an estimate to help you plan, not tax advice.')).toBeInTheDocument();
    expect(screen.getByLabelText('Tax year')).toHaveValue('2026-27');
    // £30,000 turnover − £1,500 phone − 1,000 × 45p; the van's fuel is covered by the rate.
    const profit = 3_000_000 - 150_000 - 45_000;
    expect(figure('The year in figures', 'Turnover')).toBe(formatPence(3_000_000));
    expect(figure('The year in figures', 'Expenses')).toBe(formatPence(-150_000));
    expect(figure('The year in figures', 'Mileage claim')).toBe(formatPence(-45_000));
    expect(figure('The year in figures', 'Profit')).toBe(formatPence(profit));
    expect(labels('The year in figures')).toEqual(['Turnover', 'Expenses', 'Mileage claim', 'Profit']);
    const { rates } = taxYearRates('2026-27');
    expect(figure('The tax on it', 'Income Tax')).toBe(formatPence(incomeTax(profit, rates, 'uk').tax));
    // The sections below the figures come in a second pass.
    expect(await screen.findByText(/covered by the mileage rate, not counted/)).toHaveTextContent(formatPence(8_000));

    await user.selectOptions(screen.getByLabelText('Tax year'), '2025-26');
    expect(await screen.findByRole('heading', { name: 'Set aside for 2025–26' })).toBeInTheDocument();
    expect(figure('The year in figures', 'Turnover')).toBe(formatPence(500_000));
    // £5,000 turnover with no costs: the £1,000 allowance is the better choice, and the headline
    // shows it in place of the costs, so turnover less what is shown is the profit.
    expect(figure('The year in figures', 'Trading allowance')).toBe(formatPence(-100_000));
    expect(figure('The year in figures', 'Profit')).toBe(formatPence(400_000));
    expect(labels('The year in figures')).toEqual(['Turnover', 'Trading allowance', 'Profit']);
    expect(screen.getByText(/trading allowance of £1,000.00 is claimed instead of your £0.00 of expenses/)).toBeInTheDocument();
    expect(screen.getByText(/trading allowance leaves the lower profit/)).toBeInTheDocument();
  });

  it('switches to the Scottish bands through the synced settings', async () => {
    const handle = createTestSyncHandle();
    await seed(handle);
    const { user } = renderWithSync(<TaxYearPage />, { handle, path: '/app/tax' });
    await screen.findByRole('heading', { name: 'Set aside for 2026–27' });
    const profit = 3_000_000 - 150_000 - 45_000;
    const { rates } = taxYearRates('2026-27');

    await user.click(screen.getByRole('button', { name: 'Scotland' }));
    await waitFor(() => expect(figure('The tax on it', 'Income Tax')).toBe(formatPence(incomeTax(profit, rates, 'scotland').tax)));
    expect(screen.getByRole('button', { name: 'Scotland' })).toHaveAttribute('aria-pressed', 'true');
    const items = await handle.db.outbox.toArray();
    expect(items.map((item) => [item.name, item.args])).toEqual([['settings.put', { taxRegion: 'scotland' }]]);
    expect(handle.requestSync).toHaveBeenCalled();
  });

  it('follows the calendar quarters once elected, through the synced settings', async () => {
    const handle = createTestSyncHandle();
    await seed(handle);
    const { user } = renderWithSync(<TaxYearPage />, { handle, path: '/app/tax' });
    const quarters = await screen.findByRole('list', { name: 'Quarters' });
    expect(within(quarters).getByRole('listitem', { name: 'Quarter 1' })).toHaveTextContent('Q1: 6 Apr – 5 Jul');

    await user.click(screen.getByRole('button', { name: 'Calendar' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Quarters' })).getByRole('listitem', { name: 'Quarter 1' })).toHaveTextContent('Q1: 1 Apr – 30 Jun'));
    expect(screen.getByRole('button', { name: 'Calendar' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText(/from 1 Apr to the quarter/)).toBeInTheDocument();
    const items = await handle.db.outbox.toArray();
    expect(items.map((item) => [item.name, item.args])).toEqual([['settings.put', { quarters: 'calendar' }]]);
  });

  it('warns about fuel that names no vehicle while the van is on the flat rate, and links it in one step', async () => {
    const handle = createTestSyncHandle();
    await seed(handle);
    const before: LocalExpense = { id: 'early-fuel', date: '2026-04-10', amount: 6_000, category: 'fuel', note: 'Before the van', courierId: null, vehicleId: null, repeat: 'once', repeatUntil: null, receipts: [], ...synced };
    await handle.db.expenses.put(before);
    const { user } = renderWithSync(<TaxYearPage />, { handle, path: '/app/tax' });
    const warning = await screen.findByRole('note', { name: 'Vehicle costs with no vehicle' });
    expect(warning).toHaveTextContent('£60.00 of vehicle costs name no vehicle and are counted in full: fuel £60.00. Van is on the flat mileage rate');
    expect(figure('The year in figures', 'Expenses')).toBe(formatPence(-(150_000 + 6_000)));

    await user.click(within(warning).getByRole('button', { name: 'Link them to Van' }));
    await waitFor(() => expect(screen.queryByRole('note', { name: 'Vehicle costs with no vehicle' })).not.toBeInTheDocument());
    expect(figure('The year in figures', 'Expenses')).toBe(formatPence(-150_000));
    expect(await handle.db.expenses.get('early-fuel')).toMatchObject({ vehicleId: 'van', note: 'Before the van', syncState: 'pending' });
    expect((await handle.db.outbox.toArray()).map((item) => [item.name, item.recordId])).toEqual([['expense.put', 'early-fuel']]);
  });

  it('shows both methods for the van while its method is open', async () => {
    const handle = createTestSyncHandle();
    await seed(handle);
    renderWithSync(<TaxYearPage />, { handle, path: '/app/tax' });
    const van = await screen.findByRole('region', { name: 'Van: both methods' });
    // 1,000 business miles at 45p; £80 of fuel at 100% business use (no commuting logged).
    expect(within(van).getByText('Flat rate').closest('li')).toHaveTextContent('£450.00');
    expect(within(van).getByText('Actual costs').closest('li')).toHaveTextContent('£80.00');
    expect(van).toHaveTextContent('The flat rate claim £370.00 more so far.');
  });

  it('says which sent update fixed the van’s method instead of comparing, and the checklist counts it settled', async () => {
    const handle = createTestSyncHandle();
    await seed(handle);
    const file = '{}\n';
    // Q1 sent early, on 19 May: it covers the van's trip of 21 April.
    const sent: LocalSentUpdate = { id: 's1', taxYear: '2026-27', quarter: 1, quarters: 'standard', periodStart: '2026-04-06', periodEnd: '2026-07-05', shape: 'itemised', file, sha256: sha256Hex(file), sentOn: '2026-05-19', product: 'Bridger', reference: '', supersedes: null, ...synced };
    await handle.db.sentUpdates.put(sent);
    renderWithSync(<TaxYearPage />, { handle, path: '/app/tax' });
    const van = await screen.findByRole('region', { name: 'Van: method fixed' });
    expect(van).toHaveTextContent('Fixed by the Q1 2026–27 update sent on 19 May 2026: flat rate.');
    expect(screen.queryByRole('region', { name: 'Van: both methods' })).not.toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Year-end checklist' })).toHaveTextContent('Every vehicle’s method is settled');
  });

  it('prints the summary and says when a year has no rates yet', async () => {
    vi.setSystemTime(new Date('2031-05-01T12:00:00'));
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const { user } = renderWithSync(<TaxYearPage />, { path: '/app/tax' });
    expect(await screen.findByText('The rates for 2031-32 are not in this version yet: the figures use 2026-27’s.')).toBeInTheDocument();
    expect(await screen.findByText('No days logged in this tax year yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Print or save as PDF' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it("shows Q1's update in HMRC's fields, each figure one tap from its records, and downloads it as the request JSON", async () => {
    const handle = createTestSyncHandle();
    await seed(handle);
    const blobs: Blob[] = [];
    Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: (blob: Blob) => (blobs.push(blob), 'blob:test') });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const { user } = renderWithSync(<TaxYearPage />, { handle, path: '/app/tax' });
    const update = await screen.findByRole('listitem', { name: 'Q1 update' });
    const figures = within(update).getByRole('list', { name: 'Q1 update figures' });
    // £30,000 of days, £1,500 phone; the van's £80 fuel is covered by its 1,000 miles at 45p (£450).
    expect(within(figures).getByText('periodIncome.turnover').closest('summary')).toHaveTextContent('£30,000.00');
    expect(within(figures).getByText('periodExpenses.carVanTravelExpenses').closest('summary')).toHaveTextContent('£530.00');
    expect(within(figures).getByText('periodDisallowableExpenses.carVanTravelExpensesDisallowable').closest('summary')).toHaveTextContent('£80.00');
    await user.click(within(figures).getByText('periodExpenses.carVanTravelExpenses'));
    const behind = within(figures).getByRole('list', { name: 'Records behind Car, van and travel' });
    expect(within(behind).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['20/04/2026 Fuel£80.00', '21/04/2026 Van: 1000 business miles at the flat rate£450.00']);

    await user.click(within(update).getByRole('button', { name: 'Q1 JSON for HMRC' }));
    expect(names).toEqual(['mtd-update-2026-27-Q1.json']);
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blobs[0]!);
    });
    expect(JSON.parse(text)).toMatchObject({ periodDates: { periodStartDate: '2026-04-06', periodEndDate: '2026-07-05' }, periodIncome: { turnover: 30000 }, periodExpenses: { carVanTravelExpenses: 530, adminCosts: 1500 } });
  });

  it('marks Q1 as sent with its exact file, then shows a later edit as changed since sent, with the difference', async () => {
    const handle = createTestSyncHandle();
    await seed(handle);
    vi.setSystemTime(new Date('2026-08-01T12:00:00'));
    const { user } = renderWithSync(<TaxYearPage />, { handle, path: '/app/tax' });
    const update = await screen.findByRole('listitem', { name: 'Q1 update' });
    const form = within(update).getByRole('form', { name: 'Mark Q1 as sent' });
    await user.click(within(form).getByRole('button', { name: 'Mark Q1 as sent' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Say which bridging software you sent it with');
    await user.type(within(form).getByLabelText('Bridging software'), 'Bridger');
    await user.type(within(form).getByLabelText(/Reference/), 'HMRC-REF-1');
    await user.click(within(form).getByRole('button', { name: 'Mark Q1 as sent' }));

    const sentNote = await within(update).findByRole('status', { name: 'Q1 sent' });
    expect(sentNote).toHaveTextContent('Sent on 1 August 2026 with Bridger, reference HMRC-REF-1.');
    const [sent] = await handle.db.sentUpdates.toArray();
    expect(sent).toMatchObject({ taxYear: '2026-27', quarter: 1, product: 'Bridger', reference: 'HMRC-REF-1', sentOn: '2026-08-01', supersedes: null });
    expect(sha256Hex(sent!.file)).toBe(sent!.sha256);
    expect(JSON.parse(sent!.file).periodIncome.turnover).toBe(30_000);
    const outbox = await handle.db.outbox.toArray();
    expect(outbox.map((item) => item.name)).toEqual(['sentUpdate.put']);
    expect(within(update).queryByRole('form', { name: /Mark Q1 as sent/ })).toBeNull();

    // A Q1 day edited after sending: Q1 says so, with the difference; the form offers to mark it again.
    const day = await handle.db.entries.get('new-2');
    vi.setSystemTime(new Date('2026-08-02T09:00:00'));
    await handle.db.entries.put({ ...day!, total: 1_250_000, updatedAt: new Date().toISOString() });
    const changed = await within(update).findByRole('note', { name: 'Q1 changed since sent' });
    expect(within(changed).getByRole('list', { name: 'Q1 differences' })).toHaveTextContent('Turnoversent £30,000.00, now £32,500.00+£2,500.00');
    expect(within(changed).getByRole('list', { name: 'Q1 records changed since sent' })).toHaveTextContent('£12,500.00');
    expect(within(update).getByRole('form', { name: 'Mark Q1 as sent again' })).toBeInTheDocument();
    const [still] = await handle.db.sentUpdates.toArray();
    expect(still).toEqual(sent);
  });

  it('downloads both CSV files from the device', async () => {
    const handle = createTestSyncHandle();
    await seed(handle);
    const blobs: Blob[] = [];
    const names: string[] = [];
    // jsdom has no object URLs: keep the blob the page hands over, and the file name it clicks.
    Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: (blob: Blob) => (blobs.push(blob), 'blob:test') });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const { user } = renderWithSync(<TaxYearPage />, { handle, path: '/app/tax' });
    await screen.findByRole('heading', { name: 'Set aside for 2026–27' });
    await user.click(await screen.findByRole('button', { name: 'Records CSV' }));
    await user.click(screen.getByRole('button', { name: 'Quarterly CSV' }));
    expect(names).toEqual(['delivery-tracker-tax-year-2026-27-records.csv', 'delivery-tracker-tax-year-2026-27-quarters.csv']);
    // jsdom's Blob has no text(): read it as a browser's FileReader would.
    const read = (blob: Blob) =>
      new Promise<string>((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.readAsText(blob);
      });
    const [records, quarters] = await Promise.all(blobs.map(read));
    expect(records).toContain('Date,Description,Category,Amount,Type,SA103 box,MTD field\r\n');
    expect(records).toContain('06/04/2026,Evri: 100 stops,Turnover,20000.00,Income,15,turnover\r\n');
    expect(records).not.toContain('Fuel');
    expect(quarters?.split('\r\n').filter(Boolean)).toHaveLength(5);
  });
});
