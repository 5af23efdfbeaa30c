// First: the on-device database must exist before Dexie loads.
import { createTestSyncHandle, makeEntry, type TestSyncHandle } from '@/testing/sync-handle';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_TIERS, payFor, type PayTier } from '@/core/pay/pay';
import { readPaySetup, usePaySetup } from '@/lib/sync-react/use-pay-setup';
import { localDay } from '@/lib/week';
import type * as Commands from '@/sync/commands';
import { saveRecords } from '@/sync/commands';
import type { LocalDb } from '@/sync/db';
import { makeCourier, makeRateCard, seedDefaultCourier } from '@/testing/pay-fixtures';
import { renderWithSync } from '@/testing/render-with-sync';
import { EntryForm, SUCCESS_MESSAGE_MS } from './entry-form';
import { useEntries } from './use-entries';

// The real command, wrapped so a test can hold a save in flight or make it fail.
vi.mock('@/sync/commands', async (importOriginal) => {
  const real = await importOriginal<typeof Commands>();
  return { ...real, saveRecords: vi.fn(real.saveRecords) };
});

/** The form as the dashboard composes it: couriers, cards and days read live from the device. */
function LiveEntryForm() {
  return <EntryForm pay={usePaySetup()} entries={useEntries()} />;
}

/**
 * The form over a device holding the default courier and its first card (paying `tiers`), or
 * whatever `seed` puts there; ready once the couriers, cards and days are read.
 */
async function setup(tiers: readonly PayTier[] = DEFAULT_TIERS, seed?: (db: LocalDb) => Promise<unknown>) {
  const handle: TestSyncHandle = createTestSyncHandle();
  await (seed ? seed(handle.db) : seedDefaultCourier(handle.db, tiers));
  const app = renderWithSync(<LiveEntryForm />, { handle });
  const field = (name: string) => screen.getByLabelText(name, { exact: false }) as HTMLInputElement;
  const submit = () => screen.getByRole('button', { name: /Save Entry|Saving/ });
  await waitFor(() => expect(submit()).toBeEnabled());
  return {
    ...app,
    date: () => field('Date'),
    stops: () => field('Stops'),
    extra: () => field('Extra'),
    notes: () => field('Notes'),
    submit,
  };
}

describe('EntryForm', () => {
  it('starts on today (local) with empty fields', async () => {
    const form = await setup();
    expect(form.date().value).toBe(localDay(new Date()));
    expect(form.stops().value).toBe('');
    expect(form.extra().value).toBe('');
    expect(form.notes().value).toBe('');
    expect(form.stops()).toBeRequired();
    expect(form.date()).toBeRequired();
  });

  it('asks for the stops and stores nothing without them', async () => {
    const form = await setup();
    await form.user.click(form.submit());

    expect(await screen.findByText('Please enter number of stops')).toBeInTheDocument();
    expect(form.stops()).toHaveAttribute('aria-invalid', 'true');
    expect(form.stops()).toHaveAccessibleDescription('Please enter number of stops');
    expect(await form.handle.db.entries.count()).toBe(0);
    expect(form.handle.requestSync).not.toHaveBeenCalled();
  });

  it('saves on the device with the tiered total, nudges sync, confirms and resets', async () => {
    const form = await setup();
    await form.user.clear(form.date());
    await form.user.type(form.date(), '2025-03-20');
    await form.user.type(form.stops(), '120');
    await form.user.type(form.extra(), '5.5');
    await form.user.type(form.notes(), 'Rain all day');
    await form.user.click(form.submit());

    expect(await screen.findByText('Entry saved successfully!')).toBeInTheDocument();
    const [entry] = await form.handle.db.entries.toArray();
    expect(entry).toMatchObject({
      date: '2025-03-20',
      stops: 120,
      extra: 550,
      notes: 'Rain all day',
      total: 110 * 198 + 10 * 148 + 550,
      syncState: 'pending',
      deleted: 0,
    });
    expect(await form.handle.db.outbox.count()).toBe(1);
    expect(form.handle.requestSync).toHaveBeenCalledTimes(1);

    expect(form.date().value).toBe(localDay(new Date()));
    expect(form.stops().value).toBe('');
    expect(form.extra().value).toBe('');
    expect(form.notes().value).toBe('');
  });

  it('hides the success message after 3 s', async () => {
    // The database schedules its own work with setTimeout, so the clock cannot be faked
    // here; instead, catch the message's timer and run it.
    const timers = vi.spyOn(globalThis, 'setTimeout');
    // Couriers and cards as props, not live queries: the live-query cache sets 3 s timers of its own.
    const handle = createTestSyncHandle();
    await seedDefaultCourier(handle.db);
    const app = renderWithSync(<EntryForm pay={await readPaySetup(handle.db)} entries={[]} />, { handle });
    const form = { ...app, stops: () => screen.getByLabelText('Stops'), submit: () => screen.getByRole('button', { name: /Save Entry|Saving/ }) };
    await form.user.type(form.stops(), '10');
    await form.user.click(form.submit());
    await screen.findByText('Entry saved successfully!');

    const hideTimers = () => timers.mock.calls.filter(([, ms]) => ms === SUCCESS_MESSAGE_MS);
    expect(SUCCESS_MESSAGE_MS).toBe(3_000);
    // The timer starts in an effect, which may run just after the message is found.
    await waitFor(() => expect(hideTimers()).toHaveLength(1));
    const hide = hideTimers();
    act(() => (hide[0]![0] as () => void)());
    expect(screen.queryByText('Entry saved successfully!')).not.toBeInTheDocument();
  });

  it.each([
    ['0.1', 10],
    ['0.30', 30],
    ['1.15', 115],
    ['4.35', 435],
    ['19.99', 1999],
  ])('stores extra £%s as exactly %i pence', async (typed, pence) => {
    const form = await setup();
    await form.user.type(form.stops(), '0');
    await form.user.type(form.extra(), typed);
    await form.user.click(form.submit());
    await screen.findByText('Entry saved successfully!');
    const [entry] = await form.handle.db.entries.toArray();
    expect(entry).toMatchObject({ extra: pence, total: pence });
  });

  it('refuses extra with more than two decimals instead of rounding it', async () => {
    const form = await setup();
    await form.user.type(form.stops(), '10');
    await form.user.type(form.extra(), '12.345');
    await form.user.click(form.submit());

    expect(await screen.findByText('Enter extra pay in pounds and pence, e.g. 12.50')).toBeInTheDocument();
    expect(form.extra().value).toBe('12.345');
    expect(await form.handle.db.entries.count()).toBe(0);
  });

  it('prices the day with the card in force and records that card', async () => {
    const form = await setup([{ stopCount: 10, rate: 100 }, { rate: 50 }]);
    await form.user.type(form.stops(), '12');
    expect(screen.getByText('£11.00')).toBeInTheDocument(); // the live day total
    await form.user.click(form.submit());
    await screen.findByText('Entry saved successfully!');
    expect((await form.handle.db.entries.toArray())[0]?.total).toBe(10 * 100 + 2 * 50);
    expect(payFor(DEFAULT_TIERS, 12)).not.toBe(1100); // so this test really tells the tiers apart
    const userId = form.handle.db.userId;
    expect((await form.handle.db.entries.toArray())[0]).toMatchObject({ courierId: userId, rateCardId: userId });
    expect(screen.getByText('Priced with My courier rates from the start')).toBeInTheDocument();
  });

  it('waits for the couriers and cards before it can save', async () => {
    renderWithSync(<EntryForm pay={undefined} entries={[]} />);
    expect(screen.getByRole('button', { name: 'Save Entry' })).toBeDisabled();
  });

  it('says Saving... and is disabled while the save is in flight', async () => {
    let finish: () => void = () => undefined;
    vi.mocked(saveRecords).mockImplementationOnce(
      (db, writes) => new Promise((resolve) => (finish = () => resolve(vi.mocked(saveRecords).getMockImplementation()!(db, writes)))),
    );
    const form = await setup();
    await form.user.type(form.stops(), '10');
    await form.user.click(form.submit());

    expect(form.submit()).toHaveTextContent('Saving...');
    expect(form.submit()).toBeDisabled();
    await act(async () => finish());
    expect(await screen.findByText('Entry saved successfully!')).toBeInTheDocument();
    expect(form.submit()).toHaveTextContent('Save Entry');
    expect(form.submit()).toBeEnabled();
  });

  it('reports a failed save and keeps what was typed', async () => {
    vi.mocked(saveRecords).mockRejectedValueOnce(new Error('DatabaseClosedError'));
    const form = await setup();
    await form.user.type(form.stops(), '10');
    await form.user.click(form.submit());

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to save entry');
    expect(screen.queryByText('Entry saved successfully!')).not.toBeInTheDocument();
    expect(form.stops().value).toBe('10');
    expect(form.handle.requestSync).not.toHaveBeenCalled();
  });

  it('shows its short sync indicator', () => {
    const handle = createTestSyncHandle();
    renderWithSync(<EntryForm pay={{ couriers: [], cards: [], deductions: [] }} entries={[]} />, { handle });
    expect(screen.getByText('All changes saved')).toBeInTheDocument();
    act(() => handle.emit({ state: 'syncing' }));
    expect(screen.getByText('Syncing...')).toBeInTheDocument();
    act(() => handle.emit({ state: 'offline' }));
    expect(screen.getByText('Working offline')).toBeInTheDocument();
    act(() => handle.emit({ state: 'pending', count: 2 }));
    expect(screen.getByText('Syncing...')).toBeInTheDocument();
    act(() => handle.emit({ state: 'pending', count: 2, offline: true }));
    expect(screen.getByText('Working offline')).toBeInTheDocument();
    act(() => handle.emit({ state: 'error', message: 'x' }));
    expect(screen.getByText('Sync error')).toBeInTheDocument();
  });

  it('clears a field error once the field is edited', async () => {
    const form = await setup();
    await form.user.click(form.submit());
    await screen.findByText('Please enter number of stops');
    await form.user.type(form.stops(), '1');
    await waitFor(() => expect(screen.queryByText('Please enter number of stops')).not.toBeInTheDocument());
  });

  it('before any courier has reached the device, prices with the courier and card the server made at sign-up', async () => {
    const form = await setup(DEFAULT_TIERS, async () => undefined);
    expect(await screen.findByText('Priced with My courier rates from the start')).toBeInTheDocument();
    expect(screen.queryByLabelText('Courier')).not.toBeInTheDocument();
    await form.user.type(form.stops(), '120');
    await form.user.type(form.extra(), '12.50');
    expect(screen.getByText('£245.10')).toBeInTheDocument(); // 110 × £1.98 + 10 × £1.48 + £12.50
    await form.user.click(form.submit());
    await screen.findByText('Entry saved successfully!');
    // The day points at the default courier and its first card, whose ids are the user's.
    const userId = form.handle.db.userId;
    expect((await form.handle.db.entries.toArray())[0]).toMatchObject({ stops: 120, total: 24_510, courierId: userId, rateCardId: userId });
  });

  it('says which card prices a day before a rate change and which after', async () => {
    const form = await setup(DEFAULT_TIERS, async (db) => {
      await seedDefaultCourier(db);
      await db.rateCards.put(makeRateCard('card-cut', db.userId, { validFrom: '2025-09-01', perStop: [{ stopCount: 110, rate: 178 }, { rate: 128 }] }));
    });
    await form.user.clear(form.date());
    await form.user.type(form.date(), '2025-08-31');
    await form.user.type(form.stops(), '100');
    expect(screen.getByText('Priced with My courier rates from the start')).toBeInTheDocument();
    expect(screen.getByText('£198.00')).toBeInTheDocument();
    await form.user.clear(form.date());
    await form.user.type(form.date(), '2025-09-01');
    expect(screen.getByText('Priced with My courier rates from 01/09/2025')).toBeInTheDocument();
    expect(screen.getByText('£178.00')).toBeInTheDocument();
    await form.user.click(form.submit());
    await screen.findByText('Entry saved successfully!');
    expect((await form.handle.db.entries.toArray())[0]).toMatchObject({ total: 17_800, rateCardId: 'card-cut' });
  });

  it('puts the fields the card pays for beside stops and the rest behind More details', async () => {
    const form = await setup(DEFAULT_TIERS, async (db) => {
      await db.couriers.put(makeCourier(db.userId, { name: 'Evri' }));
      await db.rateCards.put(makeRateCard(db.userId, db.userId, { perStop: null, perParcel: 45, perCollection: 30 }));
    });
    const more = screen.getByText('More details').closest('details')!;
    expect(more).not.toHaveAttribute('open');
    // Paid for: in the main grid, outside the disclosure.
    expect(more).not.toContainElement(screen.getByLabelText('Parcels'));
    expect(more).not.toContainElement(screen.getByLabelText('Collections'));
    // Not paid for: behind the disclosure, stops too (this card does not price them).
    expect(more).toContainElement(form.stops());
    expect(more).toContainElement(screen.getByLabelText('Failed/returned'));
    expect(more).toContainElement(screen.getByLabelText('Start time'));
    expect(within(more).getByText('stops, failed/returned, start and finish')).toBeInTheDocument();

    await form.user.type(screen.getByLabelText('Parcels'), '140');
    await form.user.type(screen.getByLabelText('Collections'), '3');
    expect(screen.getByText('£63.90')).toBeInTheDocument(); // 140 × 45p + 3 × 30p, with no stops typed
    await form.user.click(screen.getByText('More details'));
    expect(more).toHaveAttribute('open');
    await form.user.type(form.stops(), '90');
    await form.user.type(screen.getByLabelText('Failed/returned'), '2');
    await form.user.type(screen.getByLabelText('Start time'), '07:30');
    await form.user.type(screen.getByLabelText('Finish time'), '15:45');
    await form.user.click(form.submit());
    await screen.findByText('Entry saved successfully!');
    expect((await form.handle.db.entries.toArray())[0]).toMatchObject({
      stops: 90,
      parcels: 140,
      collections: 3,
      failed: 2,
      startTime: '07:30',
      finishTime: '15:45',
      total: 6_390,
    });
    expect(screen.getByLabelText('Parcels')).toHaveValue(null);
  });

  it('pays hours from the start and finish times when the card is hourly, and wants both', async () => {
    const form = await setup(DEFAULT_TIERS, async (db) => {
      await db.couriers.put(makeCourier(db.userId, { name: 'Flex' }));
      await db.rateCards.put(makeRateCard(db.userId, db.userId, { perStop: null, hourly: 1_500 }));
    });
    expect(screen.getByText('More details').closest('details')).not.toContainElement(screen.getByLabelText('Start time'));
    await form.user.click(form.submit());
    expect(await screen.findByText('Enter the start and finish times: this courier pays by the hour')).toBeInTheDocument();
    expect(screen.queryByText('Please enter number of stops')).not.toBeInTheDocument();
    await form.user.type(screen.getByLabelText('Start time'), '22:00');
    await form.user.click(form.submit());
    expect(await screen.findByText('Enter the finish time too, or clear the start time')).toBeInTheDocument();
    expect(await form.handle.db.entries.count()).toBe(0);
    await form.user.type(screen.getByLabelText('Finish time'), '01:30'); // after midnight: 3½ hours
    expect(screen.getByText('£52.50')).toBeInTheDocument();
    await form.user.click(form.submit());
    await screen.findByText('Entry saved successfully!');
    expect((await form.handle.db.entries.toArray())[0]).toMatchObject({ stops: 0, startTime: '22:00', finishTime: '01:30', total: 5_250 });
  });

  it('with two couriers, offers a picker set to the last used one and prices with the chosen courier’s card', async () => {
    const form = await setup(DEFAULT_TIERS, async (db) => {
      await seedDefaultCourier(db);
      await db.couriers.put(makeCourier('evri', { name: 'Evri', colour: '#7a3cff' }));
      await db.rateCards.put(makeRateCard('evri-card', 'evri', { perStop: null, perParcel: 45 }));
      await db.entries.bulkPut([
        makeEntry({ courierId: db.userId, updatedAt: '2025-03-19T18:00:00Z' }),
        makeEntry({ courierId: 'evri', rateCardId: 'evri-card', updatedAt: '2025-03-20T18:00:00Z' }),
      ]);
    });
    const courier = screen.getByLabelText('Courier') as HTMLSelectElement;
    expect(within(courier).getAllByRole('option').map((o) => o.textContent)).toEqual(['My courier', 'Evri']);
    expect(courier.value).toBe('evri');
    expect(screen.getByText('Priced with Evri rates from the start')).toBeInTheDocument();
    expect(screen.getByText('More details').closest('details')).not.toContainElement(screen.getByLabelText('Parcels'));

    await form.user.type(screen.getByLabelText('Parcels'), '120');
    expect(screen.getByText('£54.00')).toBeInTheDocument();
    await form.user.click(form.submit());
    await screen.findByText('Entry saved successfully!');
    const saved = await form.handle.db.entries.orderBy('id').filter((e) => e.parcels === 120).first();
    expect(saved).toMatchObject({ courierId: 'evri', rateCardId: 'evri-card', stops: 0, total: 5_400 });

    // Switching to the other courier re-prices the preview with its card, and saves against it.
    await form.user.selectOptions(screen.getByLabelText('Courier'), 'My courier');
    expect(screen.getByText('Priced with My courier rates from the start')).toBeInTheDocument();
    await form.user.type(form.stops(), '100');
    await form.user.click(form.submit());
    await waitFor(async () => expect(await form.handle.db.entries.count()).toBe(4));
    const mine = (await form.handle.db.entries.toArray()).find((e) => e.syncState === 'pending' && e.courierId === form.handle.db.userId);
    expect(mine).toMatchObject({ stops: 100, total: 19_800, rateCardId: form.handle.db.userId });
  });

  it('an Evri day paid per parcel asks for parcels, not stops, and shows its total as it is typed', async () => {
    const form = await setup(DEFAULT_TIERS, async (db) => {
      await db.couriers.put(makeCourier(db.userId, { name: 'Evri' }));
      await db.rateCards.put(makeRateCard(db.userId, db.userId, { perStop: null, perParcel: 45 }));
    });
    // No greyed "0" that reads as a count already typed.
    expect(form.stops()).not.toHaveAttribute('placeholder');
    expect(screen.getByLabelText('Parcels')).not.toHaveAttribute('placeholder');
    expect(screen.getByLabelText('Parcels')).toBeRequired();
    expect(form.stops()).not.toBeRequired();
    await form.user.click(form.submit());
    expect(await screen.findByText('Please enter number of parcels')).toBeInTheDocument();
    expect(screen.queryByText('Please enter number of stops')).not.toBeInTheDocument();
    await form.user.type(screen.getByLabelText('Parcels'), '140');
    expect(screen.getByText('£63.00')).toBeInTheDocument();
    await form.user.click(form.submit());
    await screen.findByText('Entry saved successfully!');
    expect((await form.handle.db.entries.toArray())[0]).toMatchObject({ stops: 0, parcels: 140, total: 6_300 });
  });

  it('a day rate asks for nothing beyond the date: its total shows at once', async () => {
    const form = await setup(DEFAULT_TIERS, async (db) => {
      await db.couriers.put(makeCourier(db.userId, { name: 'Route' }));
      await db.rateCards.put(makeRateCard(db.userId, db.userId, { perStop: null, dayRate: 14_500 }));
    });
    expect(screen.getByText('£145.00')).toBeInTheDocument();
    await form.user.click(form.submit());
    await screen.findByText('Entry saved successfully!');
    expect((await form.handle.db.entries.toArray())[0]).toMatchObject({ stops: 0, parcels: null, total: 14_500 });
  });

  it('a capped parcel day says how many parcels are paid and why', async () => {
    const form = await setup(DEFAULT_TIERS, async (db) => {
      await db.couriers.put(makeCourier(db.userId, { name: 'Evri' }));
      await db.rateCards.put(makeRateCard(db.userId, db.userId, { perStop: null, perParcel: 45, parcelCapPerStop: 2 }));
    });
    // The cap is per stop, so the stops are asked for, beside the parcels.
    expect(form.stops()).toBeRequired();
    await form.user.type(form.stops(), '40');
    await form.user.type(screen.getByLabelText('Parcels'), '95');
    expect(screen.getByText('£36.00')).toBeInTheDocument(); // 80 × 45p
    expect(screen.getByText('80 of 95 parcels paid: up to 2 a stop on 40 stops')).toBeInTheDocument();
    await form.user.clear(screen.getByLabelText('Parcels'));
    await form.user.type(screen.getByLabelText('Parcels'), '80');
    expect(screen.queryByText(/parcels paid: up to/)).not.toBeInTheDocument();
  });

  it('says before saving when the courier’s day is already logged, and saves nothing until the driver chooses', async () => {
    const form = await setup();
    await act(() => form.handle.db.entries.put(makeEntry({ id: 'logged', date: '2025-11-27', stops: 128, total: 24_444, courierId: form.handle.db.userId })));
    await form.user.clear(form.date());
    await form.user.type(form.date(), '2025-11-27');
    await form.user.type(form.stops(), '128');
    await form.user.click(form.submit());
    const notice = await screen.findByRole('group', { name: /already logged/ });
    expect(notice).toHaveTextContent('Thu 27/11/2025 is already logged: 128 stops, £244.44. Is this another shift, or the same day?');
    expect(within(notice).getByRole('link', { name: 'Open that day' })).toHaveAttribute('href', '/app/history?from=2025-11-27&to=2025-11-27&edit=logged');
    expect(await form.handle.db.entries.count()).toBe(1);
    expect(screen.queryByText('Entry saved successfully!')).not.toBeInTheDocument();

    // Cancel keeps what was typed and saves nothing; changing the day asks afresh on Save.
    await form.user.click(within(notice).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group', { name: /already logged/ })).not.toBeInTheDocument();
    expect(form.stops().value).toBe('128');
    expect(await form.handle.db.entries.count()).toBe(1);

    await form.user.click(form.submit());
    await form.user.click(within(await screen.findByRole('group', { name: /already logged/ })).getByRole('button', { name: 'Add as a separate shift' }));
    expect(await screen.findByText('Entry saved successfully as a separate shift!')).toBeInTheDocument();
    const shift = (await form.handle.db.entries.toArray()).find((entry) => entry.id !== 'logged');
    expect(shift).toMatchObject({ date: '2025-11-27', stops: 128, total: 24_444, separateShift: true, syncState: 'pending' });
    expect(form.stops().value).toBe('');
  });

  it('asks nothing when the same date is another courier’s day', async () => {
    const form = await setup(DEFAULT_TIERS, async (db) => {
      await seedDefaultCourier(db);
      await db.entries.put(makeEntry({ date: '2025-11-27', courierId: 'evri' }));
    });
    await form.user.clear(form.date());
    await form.user.type(form.date(), '2025-11-27');
    await form.user.type(form.stops(), '100');
    await form.user.click(form.submit());
    expect(await screen.findByText('Entry saved successfully!')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: /already logged/ })).not.toBeInTheDocument();
  });
});
