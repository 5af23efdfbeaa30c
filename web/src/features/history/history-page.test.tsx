import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { saveStatementCheck } from '@/sync/commands';
import { createTestSyncHandle, makeEntry, makeStatementCheckContent, TEST_USER_ID, type TestSyncHandle } from '@/testing/sync-handle';
import { makeCourier, makeDeduction, makeRateCard, seedDefaultCourier } from '@/testing/pay-fixtures';
import { renderWithSync } from '@/testing/render-with-sync';
import { HistoryPage } from './history-page';

const path = '/app/history';

// The chart (uPlot) needs a canvas and matchMedia, which jsdom lacks: the tables beside it, with
// the same figures, are what is checked here.
vi.mock('./weekly-chart', () => ({ default: () => null }));

describe('HistoryPage', () => {
  it('lists every live day, newest first, a day’s shifts as one', async () => {
    const handle = createTestSyncHandle();
    await handle.db.entries.bulkPut([
      makeEntry({ date: '2025-01-02', notes: 'second' }),
      makeEntry({ date: '2024-12-31', notes: 'first' }),
      makeEntry({ date: '2025-03-21', notes: 'gone', deleted: 1 }),
      makeEntry({ date: '2025-03-20', notes: 'fourth' }),
      makeEntry({ date: '2025-02-10', notes: 'third' }),
      makeEntry({ date: '2025-03-20', notes: 'fifth', separateShift: true }),
    ]);
    renderWithSync(<HistoryPage />, { handle, path });

    expect(screen.getByRole('heading', { level: 1, name: 'All Entries' })).toBeInTheDocument();
    expect(await screen.findByText('5 entries, newest first')).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Entries' });
    const rows = [...list.children] as HTMLElement[];
    expect(rows.map((row) => within(row).getAllByText(/first|second|third|fourth|fifth/).map((notes) => notes.textContent))).toEqual([
      ['fourth', 'fifth'],
      ['third'],
      ['second'],
      ['first'],
    ]);
    // The shifts of the 20th: one card, each shift editable on its own.
    expect(within(rows[0]!).getByText('2 shifts')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: 'Edit shift 2 for 20/03/2025' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Logged twice' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/app/dashboard');
  });

  it('says so when there is nothing yet', async () => {
    renderWithSync(<HistoryPage />, { path });
    expect(await screen.findByText('No entries yet.')).toBeInTheDocument();
  });

  it('offers Import with no entries yet (a driver moving from a spreadsheet)', async () => {
    renderWithSync(<HistoryPage />, { path });
    await screen.findByText('No entries yet.');
    expect(screen.getByRole('region', { name: 'Import' })).toBeInTheDocument();
    expect(screen.getByLabelText('File to import')).toBeInTheDocument();
  });

  it('puts Import right after the export buttons when there are entries', async () => {
    const handle = createTestSyncHandle();
    await handle.db.entries.put(makeEntry({ date: '2025-01-02' }));
    renderWithSync(<HistoryPage />, { handle, path });
    const exports = await screen.findByRole('region', { name: 'Search and export' });
    expect(within(exports).getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
    expect(exports.nextElementSibling).toBe(screen.getByRole('region', { name: 'Import' }));
  });

  it('narrows to a date range from the URL and from the From/To fields', async () => {
    const handle = createTestSyncHandle();
    await handle.db.entries.bulkPut([
      makeEntry({ date: '2024-12-30', notes: 'old year' }),
      makeEntry({ date: '2025-01-02', notes: 'new year' }),
      makeEntry({ date: '2025-02-10', notes: 'february' }),
    ]);
    const { user } = renderWithSync(<HistoryPage />, { handle, path, at: `${path}?from=2025-01-01&to=2025-01-31` });
    expect(await screen.findByText('1 of 3 entries in this period')).toBeInTheDocument();
    expect(screen.getByText('new year')).toBeInTheDocument();
    expect(screen.queryByText('old year')).not.toBeInTheDocument();

    const from = screen.getByLabelText('From');
    await user.clear(from);
    await user.type(from, '2024-12-01');
    expect(await screen.findByText('2 of 3 entries in this period')).toBeInTheDocument();
    expect(screen.getByText('old year')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Period'), 'All time');
    expect(await screen.findByText('Showing all 3 entries')).toBeInTheDocument();
  });

  it('refuses a start date after the end date', async () => {
    const handle = createTestSyncHandle();
    await handle.db.entries.bulkPut([makeEntry({ date: '2025-01-02' })]);
    renderWithSync(<HistoryPage />, { handle, path, at: `${path}?from=2025-02-01&to=2025-01-01` });
    expect(await screen.findByText('The start date must be on or before the end date')).toBeInTheDocument();
    expect(screen.getByText('No entries in this period.')).toBeInTheDocument();
  });

  /** A day of the default courier, priced by its first card. */
  const myDay = (handle: TestSyncHandle, content: Parameters<typeof makeEntry>[0]) =>
    makeEntry({ courierId: handle.db.userId, rateCardId: handle.db.userId, ...content });

  it('edits an entry in place, repricing it with the card in force, and queues it for sync', async () => {
    const handle = createTestSyncHandle();
    await seedDefaultCourier(handle.db);
    const entry = myDay(handle, { date: '2025-03-20', stops: 100, total: 19_800 });
    await handle.db.entries.put(entry);
    const { user } = renderWithSync(<HistoryPage />, { handle, path });

    await user.click(await screen.findByRole('button', { name: 'Edit entry for 20/03/2025' }));
    const stops = screen.getByLabelText('Stops');
    await user.clear(stops);
    await user.type(stops, '120');
    await user.type(screen.getByLabelText('Extra (£)'), '5.50');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    // Default tiers: 110 at £1.98, then £1.48 → 217.80 + 14.80 + 5.50 extra.
    await waitFor(async () =>
      expect(await handle.db.entries.get(entry.id)).toMatchObject({ stops: 120, extra: 550, total: 23_810, rateCardId: handle.db.userId, syncState: 'pending' }),
    );
    const [item] = await handle.db.outbox.toArray();
    expect(item).toMatchObject({ name: 'entry.put', recordId: entry.id });
    expect(handle.requestSync).toHaveBeenCalled();
    expect(await screen.findByText('Entry updated')).toBeInTheDocument();
  });

  it('editing only the notes of a day keeps its total and card to the penny (issue 12)', async () => {
    const handle = createTestSyncHandle();
    await seedDefaultCourier(handle.db);
    // Logged at £2.05 a stop, under rates the card no longer has: the day's pay was fixed then.
    const entry = myDay(handle, { date: '2024-11-04', stops: 100, total: 20_500, notes: 'Monday run' });
    await handle.db.entries.put(entry);
    const { user } = renderWithSync(<HistoryPage />, { handle, path });

    await user.click(await screen.findByRole('button', { name: 'Edit entry for 04/11/2024' }));
    expect(await screen.findByText('Nothing that decides pay was changed: the total stays as saved')).toBeInTheDocument();
    expect(within(screen.getByRole('form', { name: 'Edit entry' })).getByText('£205.00')).toBeInTheDocument(); // the preview shows the kept total
    const notes = screen.getByLabelText('Notes', { exact: false });
    await user.clear(notes);
    await user.type(notes, 'Monday run, depot closed early');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(async () => expect(await handle.db.entries.get(entry.id)).toMatchObject({ notes: 'Monday run, depot closed early', syncState: 'pending' }));
    expect(await handle.db.entries.get(entry.id)).toMatchObject({ stops: 100, total: 20_500, rateCardId: handle.db.userId });
    const [item] = await handle.db.outbox.toArray();
    expect(item?.args).toMatchObject({ total: 20_500, rateCardId: handle.db.userId, notes: 'Monday run, depot closed early' });
  });

  it('re-prices a day moved across a rate change with the card in force on its new date', async () => {
    const handle = createTestSyncHandle();
    await seedDefaultCourier(handle.db);
    await handle.db.rateCards.put(makeRateCard('cut', handle.db.userId, { validFrom: '2025-09-01', perStop: [{ stopCount: 110, rate: 178 }, { rate: 128 }] }));
    const entry = myDay(handle, { date: '2025-08-29', stops: 100, total: 19_800 });
    await handle.db.entries.put(entry);
    const { user } = renderWithSync(<HistoryPage />, { handle, path });

    await user.click(await screen.findByRole('button', { name: 'Edit entry for 29/08/2025' }));
    const date = screen.getByLabelText('Date');
    await user.clear(date);
    await user.type(date, '2025-09-01');
    expect(screen.getByText('Priced with My courier rates from 01/09/2025')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(async () => expect(await handle.db.entries.get(entry.id)).toMatchObject({ date: '2025-09-01', total: 17_800, rateCardId: 'cut' }));
  });

  it('names each day’s courier when there are two, with the hours worked, and edits the courier', async () => {
    const handle = createTestSyncHandle();
    await seedDefaultCourier(handle.db);
    await handle.db.couriers.put(makeCourier('evri', { name: 'Evri', colour: '#7a3cff' }));
    await handle.db.rateCards.put(makeRateCard('evri-card', 'evri', { perStop: null, perParcel: 45 }));
    const entry = myDay(handle, { date: '2025-03-20', stops: 100, total: 19_800, parcels: 150, startTime: '08:00', finishTime: '17:15' });
    await handle.db.entries.put(entry);
    const { user } = renderWithSync(<HistoryPage />, { handle, path });

    const card = await screen.findByRole('article', { name: 'Entry for 20/03/2025' });
    await waitFor(() => expect(card).toHaveTextContent('My courier'));
    expect(card).toHaveTextContent('08:00–17:15 (9h 15m) · 150 parcels');

    await user.click(screen.getByRole('button', { name: 'Edit entry for 20/03/2025' }));
    // The saved start and finish are not hidden behind More details.
    expect(screen.getByText('More details').closest('details')).toHaveAttribute('open');
    await user.selectOptions(screen.getByLabelText('Courier'), 'Evri');
    expect(within(screen.getByRole('form', { name: 'Edit entry' })).getByText('£67.50')).toBeInTheDocument(); // 150 parcels × 45p
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(async () => expect(await handle.db.entries.get(entry.id)).toMatchObject({ courierId: 'evri', rateCardId: 'evri-card', total: 6_750 }));
    await waitFor(() => expect(screen.getByRole('article', { name: 'Entry for 20/03/2025' })).toHaveTextContent('Evri'));
  });

  it('edits one shift of a day in place, and asks before moving a day onto a date already logged', async () => {
    const handle = createTestSyncHandle();
    await handle.db.couriers.put(makeCourier(TEST_USER_ID));
    await handle.db.rateCards.put(makeRateCard(TEST_USER_ID, TEST_USER_ID));
    await handle.db.entries.bulkPut([
      makeEntry({ id: 'morning', date: '2025-03-20', stops: 60, total: 11_880, notes: 'Morning' }),
      makeEntry({ id: 'evening', date: '2025-03-20', stops: 40, total: 7_920, notes: 'Evening', separateShift: true }),
      makeEntry({ id: 'friday', date: '2025-03-21', stops: 100, total: 19_800, notes: 'Friday' }),
    ]);
    const { user } = renderWithSync(<HistoryPage />, { handle, path });

    await user.click(await screen.findByRole('button', { name: 'Edit shift 2 for 20/03/2025' }));
    const editor = screen.getByRole('form', { name: 'Edit entry' });
    await user.clear(within(editor).getByLabelText(/Notes/));
    await user.type(within(editor).getByLabelText(/Notes/), 'Evening, rain');
    await user.click(within(editor).getByRole('button', { name: 'Save changes' }));
    await waitFor(async () => expect(await handle.db.entries.get('evening')).toMatchObject({ notes: 'Evening, rain', separateShift: true, total: 7_920 }));

    // Friday moved onto the 20th, which has its shifts: asked first, then kept as a shift there.
    await user.click(screen.getByRole('button', { name: 'Edit entry for 21/03/2025' }));
    const friday = screen.getByRole('form', { name: 'Edit entry' });
    await user.clear(within(friday).getByLabelText('Date'));
    await user.type(within(friday).getByLabelText('Date'), '2025-03-20');
    await user.click(within(friday).getByRole('button', { name: 'Save changes' }));
    const notice = await within(friday).findByRole('group', { name: /already logged/ });
    expect(notice).toHaveTextContent('Thu 20/03/2025 is already logged for My courier: 2 shifts, £198.00 in all.');
    expect(within(notice).queryByRole('link', { name: 'Open that day' })).not.toBeInTheDocument();
    expect((await handle.db.entries.get('friday'))?.date).toBe('2025-03-21');
    await user.click(within(notice).getByRole('button', { name: 'Save as a separate shift' }));
    await waitFor(async () => expect(await handle.db.entries.get('friday')).toMatchObject({ date: '2025-03-20', separateShift: true }));
    expect(await within(await screen.findByRole('article', { name: 'Entry for 20/03/2025' })).findByText('3 shifts')).toBeInTheDocument();
  });

  it('keeps a bad edit on screen with the reason', async () => {
    const handle = createTestSyncHandle();
    // The day's courier pays per stop, so its stops are required.
    await handle.db.couriers.put(makeCourier(TEST_USER_ID));
    await handle.db.rateCards.put(makeRateCard(TEST_USER_ID, TEST_USER_ID));
    await handle.db.entries.put(makeEntry({ date: '2025-03-20', stops: 100 }));
    const { user } = renderWithSync(<HistoryPage />, { handle, path });
    await user.click(await screen.findByRole('button', { name: 'Edit entry for 20/03/2025' }));
    await user.clear(screen.getByLabelText('Stops'));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Please enter number of stops')).toBeInTheDocument();
    expect(await handle.db.outbox.count()).toBe(0);
  });

  it('deletes an entry and brings it back with Undo', async () => {
    const handle = createTestSyncHandle();
    const entry = makeEntry({ date: '2025-03-20', notes: 'depot run' });
    await handle.db.entries.put(entry);
    const { user } = renderWithSync(<HistoryPage />, { handle, path });

    await user.click(await screen.findByRole('button', { name: 'Delete entry for 20/03/2025' }));
    expect(await screen.findByText('Entry for 20/03/2025 deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('depot run')).not.toBeInTheDocument());
    expect((await handle.db.entries.get(entry.id))?.deleted).toBe(1);
    expect(await handle.db.outbox.count()).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('depot run')).toBeInTheDocument();
    expect(await handle.db.entries.get(entry.id)).toMatchObject({ deleted: 0, syncState: 'synced' });
    expect(await handle.db.outbox.count()).toBe(0);
    expect(screen.getByText('Entry restored')).toBeInTheDocument();
  });

  it('ends the Undo offer when the driver moves to another view (it does not follow them)', async () => {
    const handle = createTestSyncHandle();
    await handle.db.entries.put(makeEntry({ date: '2025-03-20', notes: 'depot run' }));
    const { user } = renderWithSync(<HistoryPage />, { handle, path });

    await user.click(await screen.findByRole('button', { name: 'Delete entry for 20/03/2025' }));
    expect(await screen.findByRole('button', { name: 'Undo' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Statement checks' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Statement checks' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Entries' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'All Entries' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
  });

  it('heads each view with what it shows', async () => {
    const handle = createTestSyncHandle();
    await handle.db.entries.put(makeEntry({ date: '2025-03-20' }));
    const { user } = renderWithSync(<HistoryPage />, { handle, path });
    expect(await screen.findByText('1 entry, newest first')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Summaries' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Summaries' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Statement checks' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Statement checks' })).toBeInTheDocument();
    expect(screen.queryByText(/newest first/)).not.toBeInTheDocument();
  });

  it('shows weekly and monthly summaries for the range', async () => {
    const handle = createTestSyncHandle();
    await handle.db.entries.bulkPut([
      makeEntry({ date: '2024-12-30', stops: 100, total: 19_800 }),
      makeEntry({ date: '2025-01-02', stops: 50, total: 9_900 }),
      makeEntry({ date: '2025-01-02', stops: 10, total: 1_980 }),
    ]);
    renderWithSync(<HistoryPage />, { handle, path, at: `${path}?view=summaries` });
    const weekly = await screen.findByRole('region', { name: 'Weekly summary' });
    // Sun 29/12/2024 – Sat 04/01/2025 is one week across the year end; two entries on 02/01 are one day.
    const week = within(weekly).getByRole('row', { name: /Week of 29\/12\/2024/ });
    // Days, stops, gross, deductions, net, £/hour (gross and net; no times), £/stop.
    expect(within(week).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['2', '160', '£316.80', '–', '£316.80', '–', '£1.98']);
    const monthly = screen.getByRole('region', { name: 'Monthly summary' });
    expect(within(monthly).getByRole('row', { name: /January 2025/ })).toHaveTextContent('£118.80');
    expect(within(monthly).getByRole('row', { name: /December 2024/ })).toHaveTextContent('£198.00');
    expect(screen.getByRole('region', { name: 'Stops and earnings per week' })).toBeInTheDocument();
  });

  it('shows a day paid per parcel under the stops and in £/parcel, never in £/stop', async () => {
    const handle = createTestSyncHandle();
    await handle.db.entries.bulkPut([
      makeEntry({ date: '2025-03-16', stops: 0, parcels: 140, total: 6_300, rateCardId: null }),
      makeEntry({ date: '2025-03-17', stops: 128, total: 24_444 }),
    ]);
    renderWithSync(<HistoryPage />, { handle, path, at: `${path}?view=summaries` });
    const weekly = await screen.findByRole('region', { name: 'Weekly summary' });
    expect(within(weekly).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Week', 'Days', 'Stops', 'Gross', 'Deductions', 'Net', '£/hour', '£/stop']);
    const week = within(weekly).getByRole('row', { name: /Week of 16\/03\/2025/ });
    expect(within(week).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['2', '128140 parcels', '£307.44', '–', '£307.44', '–', '£1.91£0.45 a parcel']);
  });

  it('sums the range’s pay with its deductions, per courier', async () => {
    const handle = createTestSyncHandle();
    const me = handle.db.userId;
    await seedDefaultCourier(handle.db);
    await handle.db.couriers.put(makeCourier('evri', { name: 'Evri', colour: '#7a3cff' }));
    await handle.db.deductions.bulkPut([
      makeDeduction('van', me, { amount: 20_000, repeat: 'weekly', from: '2025-03-03' }),
      makeDeduction('damage', 'evri', { label: 'Damaged parcel', amount: 1_500, repeat: 'once', from: '2025-03-19' }),
    ]);
    await handle.db.entries.bulkPut([
      myDay(handle, { date: '2025-03-17', stops: 100, total: 19_800, startTime: '07:00', finishTime: '15:00' }),
      makeEntry({ date: '2025-03-19', stops: 60, total: 6_300, courierId: 'evri', rateCardId: null }),
    ]);
    renderWithSync(<HistoryPage />, { handle, path, at: `${path}?from=2025-03-16&to=2025-03-22` });

    const pay = await screen.findByRole('region', { name: 'Pay in this period' });
    const tile = (label: string) => within(pay).getByText(label, { selector: 'span' }).closest('li')!;
    await waitFor(() => expect(tile('Deductions')).toHaveTextContent('−£215.00'));
    expect(tile('Gross')).toHaveTextContent('£261.00');
    expect(tile('Net')).toHaveTextContent('£46.00');
    expect(tile('£ per hour')).toHaveTextContent('£24.75');
    // The timed day carries half of the £215 (two days worked): (£198 − £107.50) over 8 h.
    expect(tile('£ per hour net')).toHaveTextContent('£11.31');
    expect(tile('£ per stop')).toHaveTextContent('£1.63'); // 26100 / 160 = 163.1
    const rows = within(within(pay).getByRole('list', { name: 'By courier' })).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual(['My courier', 'Evri']);
    expect(rows[0]).toHaveTextContent('−£2.00 net');
    expect(rows[1]).toHaveTextContent('£48.00 net');
    // Each day names its courier, since there are two.
    expect(screen.getByRole('article', { name: 'Entry for 19/03/2025' })).toHaveTextContent('Evri');
  });

  it('checks a statement against the log and names the missing day', async () => {
    // The current period is the week after the one checked, so the list starts there.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 25, 9, 0));
    try {
      const handle = createTestSyncHandle();
      await handle.db.entries.bulkPut([
        makeEntry({ date: '2025-03-17', stops: 100, total: 19_800, courierId: handle.db.userId }),
        makeEntry({ date: '2025-03-18', stops: 120, total: 23_260, courierId: handle.db.userId }),
        makeEntry({ date: '2025-03-19', stops: 90, total: 17_820, courierId: handle.db.userId }),
      ]);
      const { user } = renderWithSync(<HistoryPage />, { handle, path, at: `${path}?view=statements` });
      const period = await screen.findByRole('listitem', { name: 'Pay period 16/03/2025 – 22/03/2025' });
      expect(period).toHaveTextContent('3 days, 310 stops · £608.80 gross');
      await user.click(within(period).getByRole('button', { name: 'Check statement' }));
      const form = within(period).getByRole('form', { name: 'Check statement 16/03/2025 – 22/03/2025' });
      await user.type(within(form).getByLabelText('Net paid, after deductions (£)'), '376.20');
      await user.click(within(form).getByRole('button', { name: 'Save check' }));

      const card = await screen.findByRole('article', { name: 'Statement check 16/03/2025 – 22/03/2025' });
      expect(card).toHaveTextContent('−£232.60');
      expect(card).toHaveTextContent('Tue 18/03/2025 (120 stops, £232.60) is missing from the statement.');
      expect(card).toHaveTextContent('Waiting to sync');
      const [item] = await handle.db.outbox.toArray();
      expect(item).toMatchObject({ name: 'invoice.put', args: { paid: 37_620, stops: null, periodStart: '2025-03-16', courierId: handle.db.userId } });
      expect(screen.getByText('1 of 10 towards Invoice Master')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('offers "Query this" on a short check without lines: one query of its whole shortfall, the check disputed; then the way to that query, not a second', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 25, 9, 0));
    try {
      const handle = createTestSyncHandle();
      const me = handle.db.userId;
      await seedDefaultCourier(handle.db);
      await handle.db.entries.bulkPut([
        makeEntry({ date: '2025-03-10', stops: 100, total: 19_800, courierId: me }),
        makeEntry({ date: '2025-03-17', stops: 100, total: 19_800, courierId: me }),
        makeEntry({ date: '2025-03-18', stops: 120, total: 23_260, courierId: me }),
      ]);
      await saveStatementCheck(handle.db, { ...makeStatementCheckContent({ periodStart: '2025-03-16', periodEnd: '2025-03-22', paid: 19_800 }), courierId: me });
      // The week before, paid exactly what the log says: nothing to query.
      await saveStatementCheck(handle.db, { ...makeStatementCheckContent({ periodStart: '2025-03-09', periodEnd: '2025-03-15', paid: 19_800 }), courierId: me });
      const first = renderWithSync(<HistoryPage />, { handle, path, at: `${path}?view=statements` });
      const card = await screen.findByRole('article', { name: 'Statement check 16/03/2025 – 22/03/2025' });
      const matching = screen.getByRole('article', { name: 'Statement check 09/03/2025 – 15/03/2025' });
      expect(within(matching).queryByRole('button', { name: 'Query this' })).not.toBeInTheDocument();
      await first.user.click(await within(card).findByRole('button', { name: 'Query this' }));

      await waitFor(() => expect(first.router.state.location.pathname).toBe('/app/statement-query'));
      const queries = await handle.db.statementQueries.toArray();
      expect(queries).toHaveLength(1);
      const [query] = queries;
      expect(first.router.state.location.search).toBe(`?id=${query!.id}`);
      expect(query!.items.map((i) => [i.kind, i.date, i.amount])).toEqual([['unexplained', null, 23_260]]);
      expect(query!.total).toBe(23_260);
      const checks = await handle.db.invoices.toArray();
      expect(checks.find((c) => c.periodStart === '2025-03-16')?.status).toBe('disputed');
      expect(checks.find((c) => c.periodStart === '2025-03-09')?.status).toBe('unchecked');
      first.unmount();

      renderWithSync(<HistoryPage />, { handle, path, at: `${path}?view=statements` });
      const again = await screen.findByRole('article', { name: 'Statement check 16/03/2025 – 22/03/2025' });
      const link = await within(again).findByRole('link', { name: 'Query made 25/03/2025' });
      expect(link).toHaveAttribute('href', `/app/statement-query?id=${query!.id}`);
      expect(within(again).queryByRole('button', { name: 'Query this' })).not.toBeInTheDocument();
      expect(again).toHaveTextContent('Your status: Disputed');
    } finally {
      vi.useRealTimers();
    }
  });
});
