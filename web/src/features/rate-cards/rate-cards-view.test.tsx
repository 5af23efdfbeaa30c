import 'fake-indexeddb/auto';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SUCCESS_MESSAGE_MS } from '@/lib/flash';
import { usePaySetup } from '@/lib/sync-react/use-pay-setup';
import type * as Commands from '@/sync/commands';
import { saveRecord } from '@/sync/commands';
import { DEFAULT_COURIER, entryFieldsBeforeCouriers } from '@/sync/default-courier';
import type { LocalEntry, LocalRecord, PayTier, RateCardContent } from '@/sync/types';
import { renderWithSync } from '@/testing/render-with-sync';
import { createTestSyncHandle, type TestSyncHandle } from '@/testing/sync-handle';
import { starterRules } from './card-form-schema';
import { RateCardsView } from './rate-cards-view';

// The real command, wrapped so a test can hold a save in flight or make it fail.
vi.mock('@/sync/commands', async (importOriginal) => {
  const real = await importOriginal<typeof Commands>();
  return { ...real, saveRecord: vi.fn(real.saveRecord) };
});

const TODAY = '2025-09-10';

function stored<C>(content: C, id: string): LocalRecord<C> {
  return { ...content, id, createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z', deleted: 0, syncState: 'synced', server: null };
}

/** The default courier's cards, read live as the settings screen reads them. */
function LiveCards() {
  const setup = usePaySetup();
  if (!setup) return null;
  const courierId = setup.couriers[0]!.id;
  return <RateCardsView courierId={courierId} courierName="My courier" cards={setup.cards.filter((c) => c.courierId === courierId)} today={TODAY} />;
}

async function seed(handle: TestSyncHandle, tiers: PayTier[] = [{ stopCount: 110, rate: 198 }, { rate: 148 }], more: Partial<RateCardContent> = {}) {
  const userId = handle.db.userId;
  await handle.db.couriers.put(stored(DEFAULT_COURIER, userId));
  await handle.db.rateCards.put(stored({ ...starterRules(), perStop: tiers, ...more, courierId: userId }, userId));
}

function day(handle: TestSyncHandle, id: string, date: string, stops: number, total: number): LocalEntry {
  return stored({ date, stops, extra: 0, notes: '', total, ...entryFieldsBeforeCouriers(handle.db.userId) }, id);
}

async function setup(tiers?: PayTier[]) {
  const handle = createTestSyncHandle();
  await seed(handle, tiers);
  const app = renderWithSync(<LiveCards />, { handle, path: '/app/settings' });
  await app.user.click(await screen.findByRole('button', { name: 'Edit rates from the start' }));
  const input = (name: string) => screen.getByRole('spinbutton', { name }) as HTMLInputElement;
  return {
    ...app,
    stops: (tier: number) => input(`Tier ${tier}: up to how many stops`),
    rate: (tier: number) => input(`Tier ${tier}: rate (£ per stop)`),
    finalRate: () => input('After that: rate (£ per stop)'),
    tiers: () => within(screen.getByRole('list', { name: 'Pay tiers' })).getAllByRole('listitem'),
    add: () => app.user.click(screen.getByRole('button', { name: 'Add Tier' })),
    save: () => app.user.click(screen.getByRole('button', { name: /^(Save|Saving\.\.\.)$/ })),
    saveButton: () => screen.getByRole('button', { name: /^(Save|Saving\.\.\.)$/ }),
    example: () => screen.getByText(/-stop day pays/).parentElement!,
  };
}

describe('the per-stop tiers of a rate card (spec: payment settings)', () => {
  it('shows the default tiers: up to 110 stops at £1.98, after that £1.48', async () => {
    const page = await setup();
    expect(screen.getByRole('heading', { name: 'Rates from the start for My courier' })).toBeInTheDocument();
    expect(page.tiers()).toHaveLength(2);
    expect(page.stops(1).value).toBe('110');
    expect(page.rate(1).value).toBe('1.98');
    expect(page.finalRate().value).toBe('1.48');
    expect(page.tiers()[1]).toHaveTextContent('After that');
    expect(within(page.tiers()[1]!).queryByRole('spinbutton', { name: /stops/ })).not.toBeInTheDocument();
    expect(page.rate(1)).toHaveAttribute('step', '0.01');
    expect(page.rate(1)).toHaveAttribute('min', '0.01');
    expect(page.stops(1)).toHaveAttribute('min', '1');
    expect(page.example()).toHaveTextContent('A 130-stop day pays £247.40');
    expect(page.example()).toHaveTextContent('110 × £1.98 + 20 × £1.48');
  });

  it('shows the tiers stored on the card', async () => {
    const page = await setup([{ stopCount: 100, rate: 200 }, { stopCount: 120, rate: 175 }, { rate: 150 }]);
    expect(page.tiers()).toHaveLength(3);
    expect(page.stops(2).value).toBe('120');
    expect(page.rate(2).value).toBe('1.75');
    expect(page.finalRate().value).toBe('1.50');
  });

  it('adds a tier before the final one: previous stop count + 20, average rate to the penny', async () => {
    const page = await setup();
    await page.add();
    expect(page.tiers()).toHaveLength(3);
    expect(page.stops(2).value).toBe('130');
    expect(page.rate(2).value).toBe('1.73');
    expect(page.finalRate().value).toBe('1.48');
    await page.add();
    expect(page.stops(3).value).toBe('150');
    expect(page.rate(3).value).toBe('1.61'); // (1.73 + 1.48) / 2 = 1.605
    expect(page.example()).toHaveTextContent('A 170-stop day pays');
  });

  it('removes tiers only while more than 2 exist, and never the final one', async () => {
    const page = await setup();
    expect(screen.queryByRole('button', { name: /^Remove tier/ })).not.toBeInTheDocument();
    await page.add();
    expect(screen.getAllByRole('button', { name: /^Remove tier/ }).map((b) => b.getAttribute('aria-label'))).toEqual(['Remove tier 1', 'Remove tier 2']);
    await page.user.click(screen.getByRole('button', { name: 'Remove tier 1' }));
    expect(page.tiers()).toHaveLength(2);
    expect(page.stops(1).value).toBe('130');
    expect(screen.queryByRole('button', { name: /^Remove tier/ })).not.toBeInTheDocument();
  });

  it('ignores an invalid rate or stop count and keeps the old value', async () => {
    const page = await setup();
    await page.user.clear(page.rate(1));
    await page.user.type(page.rate(1), '0');
    expect(page.example()).toHaveTextContent('£247.40'); // still priced at £1.98
    await page.user.tab();
    expect(page.rate(1).value).toBe('1.98');

    await page.user.clear(page.stops(1));
    await page.user.type(page.stops(1), '0');
    await page.user.tab();
    expect(page.stops(1).value).toBe('110');
    expect(page.saveButton()).toBeDisabled(); // nothing changed
  });

  it('takes a valid value as it is typed', async () => {
    const page = await setup();
    await page.user.clear(page.stops(1));
    await page.user.type(page.stops(1), '100');
    expect(page.example()).toHaveTextContent('A 120-stop day pays £227.60'); // 100 × 1.98 + 20 × 1.48
    await page.user.clear(page.finalRate());
    await page.user.type(page.finalRate(), '1.5');
    await page.user.tab();
    expect(page.finalRate().value).toBe('1.50');
  });

  it('saves the card on the device with its outbox item, nudges sync, and says saved for 3 s', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const page = await setup();
    await page.add();
    await page.save();

    expect(await screen.findByText('Payment settings saved successfully!')).toBeInTheDocument();
    const [item] = await page.handle.db.outbox.toArray();
    expect(item).toMatchObject({
      name: 'rateCard.put',
      recordId: page.handle.db.userId,
      args: { id: page.handle.db.userId, validFrom: '2000-01-01', perStop: [{ stopCount: 110, rate: 198 }, { stopCount: 130, rate: 173 }, { rate: 148 }] },
    });
    expect(page.handle.requestSync).toHaveBeenCalledTimes(1);
    // The stored card is now the saved one: still three tiers, nothing left to save.
    await waitFor(() => expect(screen.getByText('Saved on this device, waiting to sync')).toBeInTheDocument());
    expect(page.tiers()).toHaveLength(3);
    expect(page.saveButton()).toBeDisabled();

    // dexie-react-hooks sweeps its query cache on a 3 s timer too: only the message's own timer counts.
    const hideTimers = () => timers.mock.calls.filter(([hide, ms]) => ms === SUCCESS_MESSAGE_MS && String(hide).includes('setFlash'));
    await waitFor(() => expect(hideTimers()).toHaveLength(1));
    act(() => (hideTimers()[0]![0] as () => void)());
    expect(screen.queryByText('Payment settings saved successfully!')).not.toBeInTheDocument();
  });

  it('says Saving... and is disabled while the save is in flight', async () => {
    let finish: () => void = () => undefined;
    const real = vi.mocked(saveRecord).getMockImplementation()!;
    vi.mocked(saveRecord).mockImplementationOnce((...args) => new Promise((resolve) => (finish = () => resolve(real(...args)))) as ReturnType<typeof real>);
    const page = await setup();
    await page.add();
    await page.save();
    expect(page.saveButton()).toHaveTextContent('Saving...');
    expect(page.saveButton()).toBeDisabled();
    await act(async () => finish());
    expect(await screen.findByText('Payment settings saved successfully!')).toBeInTheDocument();
  });

  it('reports a failed save and keeps the edits', async () => {
    vi.mocked(saveRecord).mockRejectedValueOnce(new Error('boom'));
    const page = await setup();
    await page.add();
    await page.save();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to save payment settings');
    expect(page.tiers()).toHaveLength(3);
    expect(page.saveButton()).toBeEnabled();
  });

  it('follows tiers synced in from another device while nothing is being edited', async () => {
    const page = await setup();
    await act(() => seed(page.handle, [{ stopCount: 90, rate: 210 }, { rate: 160 }]));
    await waitFor(() => expect(page.stops(1).value).toBe('90'));
    expect(page.rate(1).value).toBe('2.10');
  });

  it('warns about a tier that covers no stops', async () => {
    const page = await setup();
    await page.add();
    fireEvent.change(page.stops(2), { target: { value: '100' } });
    expect(page.tiers()[1]).toHaveTextContent('This tier covers no stops');
  });
});

/** The offer's days, each as its day, change and pay, then its total line. */
function rowsOf(offer: HTMLElement): string[] {
  const days = within(within(offer).getByRole('region', { name: 'Days that would be re-priced' })).getAllByRole('listitem');
  return [...days.map((day) => [...day.children].map((part) => part.textContent).join(' | ')), within(offer).getByText(/^Total:/).textContent ?? ''];
}

describe('rate cards from a date and re-pricing', () => {
  async function withDays() {
    const handle = createTestSyncHandle();
    await seed(handle);
    await handle.db.entries.bulkPut([
      day(handle, 'aug', '2025-08-31', 100, 19_800),
      day(handle, 'sep1', '2025-09-01', 100, 19_800),
      day(handle, 'sep2', '2025-09-02', 120, 23_260),
    ]);
    const app = renderWithSync(<LiveCards />, { handle, path: '/app/settings' });
    await screen.findByText('From the start');
    return app;
  }

  async function cutFromSeptember(app: Awaited<ReturnType<typeof withDays>>, from = '2025-09-01') {
    await app.user.click(screen.getByRole('button', { name: 'Change rates from a date' }));
    const start = screen.getByLabelText(/New rates start on/);
    expect(start).toHaveValue(TODAY);
    fireEvent.change(start, { target: { value: from } });
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Tier 1: rate (£ per stop)' }), { target: { value: '1.90' } });
    await app.user.click(screen.getByRole('button', { name: 'Save' }));
  }

  it('lists the cards newest first, and offers to re-price the days from the new date with their difference', async () => {
    const app = await withDays();
    await cutFromSeptember(app);
    const offer = await screen.findByRole('group', { name: /Re-price/ });
    // 100 stops: −£8.00; 120 stops: 110 × −£0.08 = −£8.80.
    expect(within(offer).getByText(/^Re-price \d/)).toHaveTextContent('Re-price 2 days with the rates from 01/09/2025?');
    expect(rowsOf(offer)).toEqual([
      'Mon 01/09/2025 | −£8.00 | Now £198.00 · after £190.00',
      'Tue 02/09/2025 | −£8.80 | Now £232.60 · after £223.80',
      'Total: now £430.60 · after £413.80 · −£16.80',
    ]);
    expect(screen.getAllByText(/^From /).map((p) => p.textContent)).toEqual(['From 01/09/2025', 'From the start']);
    // Nothing re-priced yet: only the card went out.
    expect((await app.handle.db.outbox.toArray()).map((i) => i.name)).toEqual(['rateCard.put']);
    expect((await app.handle.db.entries.get('sep1'))?.total).toBe(19_800);
  });

  it('names the rates by the card’s start, not by the first day they move', async () => {
    const app = await withDays();
    await cutFromSeptember(app, '2025-08-20');
    const offer = await screen.findByRole('group', { name: /Re-price/ });
    expect(within(offer).getByText(/^Re-price \d/)).toHaveTextContent('Re-price 3 days with the rates from 20/08/2025?');
    expect(rowsOf(offer).map((row) => row.slice(0, 14))).toEqual(['Sun 31/08/2025', 'Mon 01/09/2025', 'Tue 02/09/2025', 'Total: now £62']);
    expect(rowsOf(offer).at(-1)).toBe('Total: now £628.60 · after £603.80 · −£24.80');
  });

  it('re-prices on Re-price in one go, and Undo puts each day back', async () => {
    const app = await withDays();
    await cutFromSeptember(app);
    await app.user.click(await screen.findByRole('button', { name: 'Re-price' }));
    expect(await screen.findByText('Re-priced 2 days')).toBeInTheDocument();
    const card = (await app.handle.db.rateCards.toArray()).find((c) => c.validFrom === '2025-09-01')!;
    expect(await app.handle.db.entries.get('sep1')).toMatchObject({ total: 19_000, rateCardId: card.id, syncState: 'pending' });
    expect(await app.handle.db.entries.get('sep2')).toMatchObject({ total: 22_380, rateCardId: card.id });
    expect((await app.handle.db.entries.get('aug'))?.total).toBe(19_800);
    expect(screen.queryByRole('group', { name: /Re-price/ })).not.toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(async () => expect(await app.handle.db.entries.get('sep1')).toMatchObject({ total: 19_800, rateCardId: app.handle.db.userId }));
    expect(await app.handle.db.entries.get('sep2')).toMatchObject({ total: 23_260, rateCardId: app.handle.db.userId });
    expect((await app.handle.db.outbox.toArray()).map((i) => i.name)).toEqual(['rateCard.put', 'entry.put', 'entry.put', 'entry.put', 'entry.put']);
  });

  it('changes nothing on Not now', async () => {
    const app = await withDays();
    await cutFromSeptember(app);
    await app.user.click(await screen.findByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('group', { name: /Re-price/ })).not.toBeInTheDocument();
    expect((await app.handle.db.entries.get('sep2'))?.total).toBe(23_260);
    expect(await app.handle.db.outbox.count()).toBe(1);
  });

  it('offers nothing when no day changes', async () => {
    const app = await withDays();
    await app.user.click(screen.getByRole('button', { name: 'Change rates from a date' }));
    fireEvent.change(screen.getByLabelText(/New rates start on/), { target: { value: '2025-10-01' } });
    await app.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Payment settings saved successfully!')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: /Re-price/ })).not.toBeInTheDocument();
  });

  it('edits a card to pay per parcel with a cap, and says what is wrong before saving', async () => {
    const app = await withDays();
    await app.user.click(screen.getByRole('button', { name: 'Edit rates from the start' }));
    await app.user.click(screen.getByRole('checkbox', { name: 'Pay per stop, in tiers' }));
    await app.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Choose at least one way this courier pays/)).toBeInTheDocument();
    // A per-stop card shows only per stop; the other ways to pay are one tap away, and the tap
    // puts the cursor in the first box.
    expect(screen.queryByLabelText(/Per parcel/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/Hourly rate/)).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Per parcel, collection or failed item' }));
    expect(screen.getByLabelText(/Per parcel/)).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Per parcel, collection or failed item' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Day rate or hourly' })).toBeInTheDocument();
    await app.user.type(screen.getByLabelText(/Parcels paid a stop/), '3');
    expect(screen.getByLabelText(/Parcels paid a stop/)).toHaveFocus();
    await app.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A parcel cap needs a per-parcel rate or pay by size band')).toBeInTheDocument();
    await app.user.type(screen.getByLabelText(/Per parcel/), '0.45');
    await app.user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Payment settings saved successfully!');
    expect(await app.handle.db.rateCards.get(app.handle.db.userId)).toMatchObject({ perStop: null, perParcel: 45, parcelCapPerStop: 3, validFrom: '2000-01-01' });
  });
});
