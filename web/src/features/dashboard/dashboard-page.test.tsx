import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '@/testing/fixtures';
import { makeCourier, makeDeduction, makeRateCard, seedDefaultCourier } from '@/testing/pay-fixtures';
import { renderWithSync } from '@/testing/render-with-sync';
import { createTestSyncHandle, makeEntry, type TestSyncHandle } from '@/testing/sync-handle';
import type { LocalEntry, OutboxItem } from '@/sync/types';
import { DashboardPage } from './dashboard-page';

let handle: TestSyncHandle;

beforeEach(() => {
  // Friday 21 March 2025, 09:30: only the clock is fixed (the database needs real timers).
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2025, 2, 21, 9, 30));
  handle = createTestSyncHandle();
});

afterEach(() => {
  vi.useRealTimers();
  window.scrollY = 0;
});

async function seed(entries: LocalEntry[], outbox: OutboxItem[] = []) {
  await handle.db.entries.bulkPut(entries);
  if (outbox.length) await handle.db.outbox.bulkAdd(outbox);
}

function parkedItem(entry: LocalEntry, lastError: string): OutboxItem {
  return {
    mutationId: `m-${entry.id}`,
    name: 'entry.put',
    args: { id: entry.id, date: entry.date, stops: entry.stops, extra: entry.extra, notes: entry.notes, total: entry.total },
    recordId: entry.id,
    createdAt: 0,
    attempts: 5,
    lastError,
    parked: 1,
  };
}

const recent = () => screen.getByRole('region', { name: 'Recent Entries' });

describe('DashboardPage', () => {
  it('greets the driver by first name and welcomes a new user', async () => {
    renderWithSync(<DashboardPage />, { handle, user: makeUser({ displayName: 'Sam Driver' }) });
    const greeting = screen.getByRole('region', { name: 'Greeting' });
    expect(within(greeting).getByRole('heading')).toHaveTextContent('Good morning, Sam!');
    expect(await within(greeting).findByText(/Welcome to Delivery Tracker!/)).toBeInTheDocument();
    expect(within(recent()).getByText(/No entries yet/)).toBeInTheDocument();
  });

  it('greets a guest without a name as Driver, and a returning user without the welcome', async () => {
    await seed([makeEntry({ date: '2025-03-20' })]);
    vi.setSystemTime(new Date(2025, 2, 21, 18, 0));
    renderWithSync(<DashboardPage />, { handle, user: makeUser({ displayName: 'User', isAnonymous: true, email: null }) });
    const greeting = screen.getByRole('region', { name: 'Greeting' });
    expect(within(greeting).getByRole('heading')).toHaveTextContent('Good evening, Driver!');
    expect(await within(greeting).findByText('Friday 21 March')).toBeInTheDocument();
    expect(within(greeting).queryByText(/Welcome/)).not.toBeInTheDocument();
  });

  it('hides the greeting card once scrolled more than 100px', () => {
    renderWithSync(<DashboardPage />, { handle });
    const card = screen.getByTestId('greeting-card');
    act(() => {
      window.scrollY = 100;
      fireEvent.scroll(window);
    });
    expect(card).toBeVisible();
    act(() => {
      window.scrollY = 101;
      fireEvent.scroll(window);
    });
    expect(card).not.toBeVisible();
    act(() => {
      window.scrollY = 0;
      fireEvent.scroll(window);
    });
    expect(card).toBeVisible();
  });

  it('fills the four stat cards from the entries on the device', async () => {
    await seed([
      makeEntry({ date: '2025-03-14', stops: 1000, total: 1 }), // last week
      makeEntry({ date: '2025-03-16', stops: 100, total: 19_800 }),
      makeEntry({ date: '2025-03-18', stops: 111, extra: 500, total: 22_428 }),
      makeEntry({ date: '2025-03-19', stops: 50, total: 9_900, deleted: 1 }), // deleted: never counted
    ]);
    renderWithSync(<DashboardPage />, { handle });
    const stats = screen.getByRole('list', { name: 'Your stats' });
    const card = (label: string) => within(stats).getByText(label).closest('li')!;

    expect(await within(card('This week')).findByText('211')).toBeInTheDocument();
    expect(within(card('Daily average')).getByText('106')).toBeInTheDocument(); // 211 / 2 = 105.5
    expect(within(card('Earnings')).getByText('£422.28')).toBeInTheDocument();
    expect(within(card('All-time stops')).getByText('1,211')).toBeInTheDocument();
  });

  it('counts an Evri day paid per parcel beside the stops: in the cards, the bars and the week’s £ per parcel', async () => {
    await handle.db.couriers.bulkPut([makeCourier('dpd', { name: 'DPD' }), makeCourier('evri', { name: 'Evri' })]);
    await handle.db.rateCards.bulkPut([makeRateCard('dpd-card', 'dpd'), makeRateCard('evri-card', 'evri', { perStop: null, perParcel: 45 })]);
    await seed([
      makeEntry({ date: '2025-03-16', courierId: 'evri', rateCardId: 'evri-card', stops: 0, parcels: 140, total: 6_300 }), // Sunday
      makeEntry({ date: '2025-03-17', courierId: 'dpd', rateCardId: 'dpd-card', stops: 128, total: 24_444 }),
      makeEntry({ date: '2025-03-18', courierId: 'dpd', rateCardId: 'dpd-card', stops: 120, total: 23_260 }),
    ]);
    renderWithSync(<DashboardPage />, { handle });
    const stats = screen.getByRole('list', { name: 'Your stats' });
    const card = (label: string) => within(stats).getByText(label).closest('li')!;
    expect(await within(card('This week')).findByText('and 140 parcels')).toBeInTheDocument();
    expect(within(card('This week')).getByText('248')).toBeInTheDocument();
    // Not halved by the parcel day: 248 stops over the 2 days with stops.
    expect(within(card('Daily average')).getByText('124')).toBeInTheDocument();
    expect(within(card('Daily average')).getByText('and 140 parcels a day (1 day)')).toBeInTheDocument();
    expect(within(card('Earnings')).getByText('£540.04')).toBeInTheDocument();
    expect(within(card('All-time stops')).getByText('and 140 parcels')).toBeInTheDocument();

    const weekly = screen.getByRole('region', { name: 'Weekly Stats' });
    const days = within(weekly).getAllByRole('listitem');
    expect(days[0]).toHaveTextContent('Sunday 16 March: 140 parcels');
    expect(days[1]).toHaveTextContent('Monday 17 March: 128 stops');
    expect(within(weekly).getByText('Parcels (days paid per parcel)')).toBeInTheDocument();

    const week = screen.getByRole('region', { name: "This week's pay" });
    const tile = (label: string) => within(week).getByText(label, { exact: true }).closest('li')!;
    await waitFor(() => expect(tile('£ per parcel')).toHaveTextContent('£0.45'));
    expect(tile('£ per stop')).toHaveTextContent('£1.92'); // (244.44 + 232.60) / 248
    expect(tile('Gross')).toHaveTextContent('3 days worked');
  });

  it('shows this week Sunday to Saturday in Weekly Stats', async () => {
    await seed([makeEntry({ date: '2025-03-16', stops: 100 }), makeEntry({ date: '2025-03-21', stops: 7 })]);
    renderWithSync(<DashboardPage />, { handle });
    const weekly = await screen.findByRole('region', { name: 'Weekly Stats' });
    const days = within(weekly).getAllByRole('listitem');
    expect(days).toHaveLength(7);
    expect(days[0]).toHaveTextContent('Sunday 16 March: 100 stops');
    expect(days[5]).toHaveTextContent('Friday 21 March (today): 7 stops');
    expect(days[6]).toHaveTextContent('Saturday 22 March: 0 stops');
    expect(within(weekly).getByText('16/03/2025 – 22/03/2025')).toBeInTheDocument();
  });

  it('lists the 3 newest days, a day’s shifts as one, newest first', async () => {
    await seed([
      makeEntry({ date: '2025-03-17', notes: 'oldest' }),
      makeEntry({ date: '2025-03-18', notes: 'third day' }),
      makeEntry({ date: '2025-03-20', notes: 'same day, first' }),
      makeEntry({ date: '2025-03-21', notes: 'newest day' }),
      makeEntry({ date: '2025-03-20', notes: 'same day, second', separateShift: true }),
      makeEntry({ date: '2025-03-21', notes: 'deleted', deleted: 1 }),
    ]);
    renderWithSync(<DashboardPage />, { handle });

    await within(recent()).findByText('newest day');
    const days = within(recent()).getAllByRole('article');
    expect(days.map((day) => within(day).getAllByRole('heading')[0]!.textContent)).toEqual(['21/03/2025', '20/03/2025', '18/03/2025']);
    // The two shifts of the 20th: one day, its figures added up, each shift under it, first logged first.
    expect(days[1]).toHaveTextContent('2 shifts');
    expect(days[1]).toHaveTextContent('£396.00');
    const shifts = within(days[1]!).getAllByRole('listitem');
    expect(shifts.map((shift) => shift.textContent)).toEqual([expect.stringContaining('same day, first'), expect.stringContaining('same day, second')]);
    expect(within(recent()).queryByText('oldest')).not.toBeInTheDocument();
    expect(within(recent()).queryByText('deleted')).not.toBeInTheDocument();
    expect(within(recent()).getByRole('link', { name: 'View all entries (5)' })).toHaveAttribute('href', '/app/history');
  });

  it('offers View all entries only above 3 entries', async () => {
    await seed([makeEntry({ date: '2025-03-19' }), makeEntry({ date: '2025-03-20' }), makeEntry({ date: '2025-03-21', notes: 'third' })]);
    renderWithSync(<DashboardPage />, { handle });
    await within(recent()).findByText('third');
    expect(within(recent()).getAllByRole('listitem')).toHaveLength(3);
    expect(within(recent()).queryByRole('link', { name: /View all entries/ })).not.toBeInTheDocument();

    await act(() => handle.db.entries.put(makeEntry({ date: '2025-03-01' })));
    expect(await within(recent()).findByRole('link', { name: 'View all entries (4)' })).toBeInTheDocument();
  });

  it('shows each entry with its figures and where it stands with the server, in words', async () => {
    const parked = makeEntry({ date: '2025-03-19', stops: 12, syncState: 'parked' });
    await seed(
      [
        makeEntry({ date: '2025-03-21', stops: 120, extra: 550, total: 23_810, notes: 'Rain all day', syncState: 'synced' }),
        makeEntry({ date: '2025-03-20', syncState: 'pending' }),
        parked,
      ],
      [parkedItem(parked, 'Stops must be a whole number from 0 to 1000')],
    );
    renderWithSync(<DashboardPage />, { handle });
    await within(recent()).findByText('Rain all day');
    const [synced, pending, notSynced] = within(recent()).getAllByRole('listitem');

    expect(synced).toHaveTextContent('Stops120');
    expect(synced).toHaveTextContent('Extra£5.50');
    expect(synced).toHaveTextContent('Total£238.10');
    expect(within(synced!).getByText('Synced')).toBeInTheDocument();
    expect(pending).toHaveTextContent('Waiting to sync');
    // The reason comes from the outbox, read by its own live query.
    await waitFor(() => expect(notSynced).toHaveTextContent('Not synced: Stops must be a whole number from 0 to 1000'));
  });

  it('lists parked changes with the reason; Retry sends again', async () => {
    const entry = makeEntry({ date: '2025-03-19', stops: 12, total: 2_376, syncState: 'parked' });
    await seed([entry], [parkedItem(entry, 'Request refused (413)')]);
    const app = renderWithSync(<DashboardPage />, { handle });

    const panel = await screen.findByRole('region', { name: 'Changes not synced (1)' });
    expect(panel).toHaveTextContent('New entry for 19/03/2025 (12 stops, £23.76)');
    expect(panel).toHaveTextContent('Reason: Request refused (413)');

    await app.user.click(within(panel).getByRole('button', { name: /^Retry/ }));

    expect(await within(recent()).findByText('Waiting to sync')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('region', { name: /Changes not synced/ })).not.toBeInTheDocument());
    expect((await handle.db.outbox.toArray())[0]).toMatchObject({ parked: 0, attempts: 0, lastError: null });
    expect((await handle.db.entries.get(entry.id))?.syncState).toBe('pending');
    expect(handle.requestSync).toHaveBeenCalledTimes(1);
  });

  it('asks before Discard drops what the driver typed', async () => {
    const entry = makeEntry({ date: '2025-03-19', stops: 12, total: 2_376, syncState: 'parked', notes: 'typed offline' });
    await seed([entry], [parkedItem(entry, 'Rejected')]);
    const app = renderWithSync(<DashboardPage />, { handle });
    const panel = await screen.findByRole('region', { name: 'Changes not synced (1)' });

    await app.user.click(within(panel).getByRole('button', { name: /^Discard/ }));
    let dialog = screen.getByRole('alertdialog', { name: 'Discard this change?' });
    expect(dialog).toHaveAccessibleDescription(/What you typed will be lost/);
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await app.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(await handle.db.outbox.count()).toBe(1);

    await app.user.click(within(panel).getByRole('button', { name: /^Discard/ }));
    dialog = screen.getByRole('alertdialog', { name: 'Discard this change?' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Discard' }));

    await waitFor(() => expect(screen.queryByText('typed offline')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.queryByRole('region', { name: /Changes not synced/ })).not.toBeInTheDocument());
    expect(await handle.db.outbox.count()).toBe(0);
    // The server never had this entry, so it is gone from the device too.
    expect(await handle.db.entries.get(entry.id)).toBeUndefined();
  });

  /** The entry form saves once the couriers and cards are read. */
  const saveReady = () => waitFor(() => expect(screen.getByRole('button', { name: 'Save Entry' })).toBeEnabled());

  it('saves a new entry and shows it at once, before any sync', async () => {
    await seedDefaultCourier(handle.db);
    const app = renderWithSync(<DashboardPage />, { handle });
    await saveReady();
    await app.user.type(screen.getByLabelText('Stops'), '120');
    await app.user.click(screen.getByRole('button', { name: 'Save Entry' }));

    // Today's form gives way to today's logged day (issue 26), which says it was saved; one tap edits it.
    const today = await screen.findByRole('region', { name: /^Today/ });
    expect(within(today).getByRole('status')).toHaveTextContent('Entry saved successfully!');
    expect(within(today).getByRole('button', { name: 'Edit today: £232.60, My courier · 120 stops' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Log New Entry' })).not.toBeInTheDocument();
    await app.user.click(within(today).getByRole('button', { name: /^Edit today/ }));
    expect(within(today).getByRole('form', { name: 'Edit entry' })).toBeInTheDocument();
    const [item] = await within(recent()).findAllByRole('listitem');
    expect(item).toHaveTextContent('21/03/2025');
    expect(item).toHaveTextContent('Total£232.60');
    expect(item).toHaveTextContent('Waiting to sync');
    const stats = screen.getByRole('list', { name: 'Your stats' });
    expect(within(stats).getByText('This week').closest('li')).toHaveTextContent('120');
  });

  it('prices a new entry with the driver’s own rates: the card in force', async () => {
    await seedDefaultCourier(handle.db, [{ stopCount: 10, rate: 100 }, { rate: 50 }]);
    const app = renderWithSync(<DashboardPage />, { handle });
    await saveReady();
    await app.user.type(screen.getByLabelText('Stops'), '12');
    expect(await screen.findByText('£11.00')).toBeInTheDocument(); // 10 × £1 + 2 × £0.50
    await app.user.click(screen.getByRole('button', { name: 'Save Entry' }));
    await screen.findByText('Entry saved successfully!');
    expect((await handle.db.entries.toArray())[0]?.total).toBe(1_100);
  });

  it('prices with a card saved on this device before the server has it', async () => {
    const tiers = [{ stopCount: 5, rate: 300 }, { rate: 100 }];
    await handle.db.couriers.put(makeCourier(handle.db.userId));
    await handle.db.rateCards.put({ ...makeRateCard(handle.db.userId, handle.db.userId, { perStop: tiers }), syncState: 'pending' });
    const app = renderWithSync(<DashboardPage />, { handle });
    await saveReady();
    await app.user.type(screen.getByLabelText('Stops'), '7');
    expect(await screen.findByText('£17.00')).toBeInTheDocument();
  });

  it('greets by the name edited in the profile, even before it has synced', async () => {
    await handle.db.docs.put({ kind: 'profile', data: null, server: null, patch: { displayName: 'Samira Khan' }, version: 0, syncState: 'pending' });
    renderWithSync(<DashboardPage />, { handle, user: makeUser({ displayName: 'Sam Driver' }) });
    const greeting = screen.getByRole('region', { name: 'Greeting' });
    await waitFor(() => expect(within(greeting).getByRole('heading')).toHaveTextContent('Good morning, Samira!'));
  });

  it('shows this week’s pay: gross, deductions, net, £ per hour and £ per stop, and Earnings net', async () => {
    const me = handle.db.userId;
    await seedDefaultCourier(handle.db);
    // £200 van hire every Monday: Monday 17 March is in this week (Sun 16 – Sat 22).
    await handle.db.deductions.put(makeDeduction('van', me, { amount: 20_000, repeat: 'weekly', from: '2025-03-03' }));
    await seed([
      makeEntry({ date: '2025-03-14', stops: 1000, total: 99_999, courierId: me }), // last week
      makeEntry({ date: '2025-03-17', stops: 100, total: 19_800, courierId: me, startTime: '07:00', finishTime: '15:00' }),
      makeEntry({ date: '2025-03-18', stops: 120, total: 23_260, courierId: me }),
    ]);
    renderWithSync(<DashboardPage />, { handle });
    const pay = await screen.findByRole('region', { name: "This week's pay" });
    expect(within(pay).getByText('16/03/2025 – 22/03/2025')).toBeInTheDocument();
    const tile = (label: string) => within(pay).getByText(label, { selector: 'span' }).closest('li')!;
    await waitFor(() => expect(tile('Deductions')).toHaveTextContent('−£200.00'));
    expect(tile('Gross')).toHaveTextContent('£430.60');
    expect(tile('Gross')).toHaveTextContent('2 days worked');
    expect(tile('Net')).toHaveTextContent('£230.60');
    expect(tile('£ per hour')).toHaveTextContent('£24.75'); // £198.00 over 8 h
    expect(tile('£ per hour')).toHaveTextContent('gross over 8h on 1 of 2 days timed');
    // Net: the timed day carries half the week's £200 van hire: (£198 − £100) over 8 h.
    expect(tile('£ per hour net')).toHaveTextContent('£12.25');
    expect(tile('£ per hour net')).toHaveTextContent('after those days’ share of deductions');
    expect(tile('£ per stop')).toHaveTextContent('£1.96'); // £430.60 / 220 = 1.957…
    // One courier: no breakdown.
    expect(within(pay).queryByText('By courier')).not.toBeInTheDocument();

    const stats = screen.getByRole('list', { name: 'Your stats' });
    const earnings = within(stats).getByText('Earnings').closest('li')!;
    expect(earnings).toHaveTextContent('£230.60');
    expect(earnings).toHaveTextContent('net this week');
  });

  it('leaves out £ per hour when no day has times, and £ per stop when there are no stops', async () => {
    await seedDefaultCourier(handle.db);
    await seed([makeEntry({ date: '2025-03-17', stops: 0, total: 12_000 })]);
    renderWithSync(<DashboardPage />, { handle });
    const pay = await screen.findByRole('region', { name: "This week's pay" });
    await waitFor(() => expect(within(pay).getByText('Gross', { selector: 'span' }).closest('li')).toHaveTextContent('£120.00'));
    expect(within(pay).queryByText('£ per hour')).not.toBeInTheDocument();
    expect(within(pay).queryByText('£ per hour net')).not.toBeInTheDocument();
    expect(within(pay).queryByText('£ per stop')).not.toBeInTheDocument();
  });

  it('with two couriers this week, breaks the pay down per courier and names each day’s courier', async () => {
    const me = handle.db.userId;
    await seedDefaultCourier(handle.db);
    await handle.db.couriers.put(makeCourier('evri', { name: 'Evri', colour: '#7a3cff' }));
    await handle.db.deductions.put(makeDeduction('device', 'evri', { label: 'Device rent', amount: 500, repeat: 'once', from: '2025-03-19' }));
    await seed([
      makeEntry({ date: '2025-03-17', stops: 100, total: 19_800, courierId: me }),
      makeEntry({ date: '2025-03-19', stops: 80, total: 6_300, courierId: 'evri', rateCardId: null, parcels: 140, startTime: '09:00', finishTime: '13:30' }),
    ]);
    renderWithSync(<DashboardPage />, { handle });
    const pay = await screen.findByRole('region', { name: "This week's pay" });
    const byCourier = await within(pay).findByRole('list', { name: 'By courier' });
    const rows = within(byCourier).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual(['My courier', 'Evri']);
    expect(rows[0]).toHaveTextContent('£198.00 net');
    expect(rows[0]).toHaveTextContent('£198.00 gross − £0.00 deductions · £1.98/stop');
    expect(rows[1]).toHaveTextContent('£58.00 net');
    expect(rows[1]).toHaveTextContent('£63.00 gross − £5.00 deductions · £14.00/hour (£12.89 net) · £0.79/stop');
    expect(within(pay).getByText('Net', { selector: 'span' }).closest('li')).toHaveTextContent('£256.00');

    const evriDay = await within(recent()).findByRole('article', { name: 'Entry for 19/03/2025' });
    expect(evriDay).toHaveTextContent('Evri');
    expect(evriDay).toHaveTextContent('09:00–13:30 (4h 30m) · 140 parcels');
    expect(within(recent()).getByRole('article', { name: 'Entry for 17/03/2025' })).toHaveTextContent('My courier');
  });

  it('names no courier on the days while the driver has only one', async () => {
    await seedDefaultCourier(handle.db);
    await seed([makeEntry({ date: '2025-03-17', notes: 'only one' })]);
    renderWithSync(<DashboardPage />, { handle });
    const day = await within(recent()).findByRole('article', { name: 'Entry for 17/03/2025' });
    await screen.findByText('Priced with My courier rates from the start');
    expect(day).not.toHaveTextContent('My courier');
  });
  it('opens the mileage form from Log mileage, and shows Reminders only when one is due', async () => {
    renderWithSync(<DashboardPage />, { handle });
    expect(screen.getByRole('link', { name: 'Log mileage' })).toHaveAttribute('href', '/app/spending?view=mileage&add=1');
    expect(await within(recent()).findByText(/No entries yet/)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Reminders' })).not.toBeInTheDocument();
    await handle.db.receiptPhotos.put({ id: 'r1', holderId: 'e', blob: new Blob(['x']), type: 'image/jpeg', bytes: 1, createdAt: 1, uploadedAt: null, error: 'Not an image' });
    expect(await screen.findByRole('heading', { name: 'Reminders' })).toBeInTheDocument();
    expect(screen.getByText('1 receipt photo could not be uploaded')).toBeInTheDocument();
  });
});
