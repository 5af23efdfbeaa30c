import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_COURIER, entryFieldsBeforeCouriers } from '@/sync/default-courier';
import type { CourierContent, LocalRecord } from '@/sync/types';
import { renderWithSync } from '@/testing/render-with-sync';
import { createTestSyncHandle, type TestSyncHandle } from '@/testing/sync-handle';
import { starterRules } from '@/features/rate-cards/card-form-schema';
import { SettingsPage } from './settings-page';

function stored<C>(content: C, id: string): LocalRecord<C> {
  return { ...content, id, createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z', deleted: 0, syncState: 'synced', server: null };
}

const evri: CourierContent = { name: 'Evri', colour: '#16a34a', periodKind: 'fourFourFive', periodAnchor: '2025-01-05', arrearsWeeks: 0 };

/** The default courier (as the server's migration makes it) and, optionally, Evri with its own card. */
async function seed(handle: TestSyncHandle, withEvri = true) {
  const userId = handle.db.userId;
  await handle.db.couriers.put(stored({ ...DEFAULT_COURIER, arrearsWeeks: 1 }, userId));
  await handle.db.rateCards.put(stored({ ...starterRules(), courierId: userId }, userId));
  if (withEvri) {
    await handle.db.couriers.put(stored(evri, 'evri'));
    await handle.db.rateCards.put(stored({ ...starterRules(), perStop: null, perParcel: 45, courierId: 'evri' }, 'evri-card'));
  }
}

async function setup(withEvri = true) {
  const handle = createTestSyncHandle();
  await seed(handle, withEvri);
  const app = renderWithSync(<SettingsPage />, { handle, path: '/app/settings' });
  const section = await screen.findByRole('region', { name: 'Couriers & pay' });
  return { ...app, section, // The courier's own toggle (its Edit and Delete buttons carry its name too).
    toggle: (name: RegExp) => {
      const toggle = within(section).getAllByRole('button', { name }).find((b) => b.hasAttribute('aria-expanded'));
      if (!toggle) throw new Error(`no courier ${name}`);
      return toggle;
    },
  };
}

describe('SettingsPage', () => {
  it('is loading until the pay setup has been read', () => {
    renderWithSync(<SettingsPage />, { path: '/app/settings' });
    expect(screen.getByRole('status', { name: 'Loading payment settings' })).toBeInTheDocument();
  });

  it('says so when the settings cannot be read', async () => {
    const handle = createTestSyncHandle();
    vi.spyOn(handle.db.rateCards, 'where').mockImplementation(() => {
      throw new Error('broken');
    });
    renderWithSync(<SettingsPage />, { handle, path: '/app/settings' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load payment settings');
  });

  it('lists each courier with its pay period in words, the default one open on its cards and deductions', async () => {
    const page = await setup();
    const mine = page.toggle(/My courier/);
    expect(mine).toHaveTextContent('Weekly from Sunday, paid 1 week in arrears');
    expect(mine).toHaveAttribute('aria-expanded', 'true');
    const evriToggle = page.toggle(/Evri/);
    expect(evriToggle).toHaveTextContent('4-4-5 from 05/01/2025');
    expect(evriToggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getAllByRole('region', { name: /^Rate cards for / })).toHaveLength(1);
    expect(screen.getByRole('region', { name: 'Rate cards for My courier' })).toBeInTheDocument();
    expect(screen.getByText('up to 110 stops at £1.98, then £1.48 a stop')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Deductions for My courier' })).toBeInTheDocument();
    // The tiers live on the card now: no profile-level tier editor until a card is opened.
    expect(screen.queryByRole('button', { name: 'Add Tier' })).not.toBeInTheDocument();

    await page.user.click(evriToggle);
    expect(evriToggle).toHaveAttribute('aria-expanded', 'true');
    // Two couriers open: each section named for its courier, so no two share a name.
    expect(screen.getByRole('region', { name: 'Rate cards for My courier' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Rate cards for Evri' })).toBeInTheDocument();
    expect(screen.getByText('£0.45 a parcel')).toBeInTheDocument();
  });

  it('adds a courier with its first card, from the start, in one transaction', async () => {
    const page = await setup(false);
    await page.user.click(screen.getByRole('button', { name: 'Add courier' }));
    await page.user.click(screen.getByRole('button', { name: 'Add courier' }));
    expect(await screen.findByText('Please enter the courier’s name')).toBeInTheDocument();
    await page.user.type(screen.getByLabelText(/^Name/), 'Yodel');
    await page.user.click(screen.getByRole('radio', { name: 'Violet' }));
    await page.user.selectOptions(screen.getByLabelText('Pay period'), 'monthly');
    await page.user.clear(screen.getByLabelText('Day of the month it starts'));
    await page.user.type(screen.getByLabelText('Day of the month it starts'), '15');
    await page.user.clear(screen.getByLabelText('Weeks in arrears'));
    await page.user.type(screen.getByLabelText('Weeks in arrears'), '2');
    await page.user.click(screen.getByRole('button', { name: 'Add courier' }));

    const yodel = await waitFor(() => page.toggle(/Yodel/));
    expect(yodel).toHaveTextContent('Monthly from the 15th, paid 2 weeks in arrears');
    expect(yodel).toHaveAttribute('aria-expanded', 'true');
    const items = await page.handle.db.outbox.orderBy('seq').toArray();
    expect(items.map((i) => i.name)).toEqual(['courier.put', 'rateCard.put']);
    expect(items[0]!.args).toMatchObject({ name: 'Yodel', colour: '#8b5cf6', periodKind: 'monthly', periodAnchor: '2000-01-15', arrearsWeeks: 2 });
    expect(items[1]!.args).toMatchObject({ courierId: items[0]!.recordId, validFrom: '2000-01-01', perStop: [{ stopCount: 110, rate: 198 }, { rate: 148 }] });
    expect(page.handle.requestSync).toHaveBeenCalled();
    const cards = screen.getByRole('region', { name: 'Rate cards for Yodel' });
    expect(within(cards).getByText('From the start')).toBeInTheDocument();
  });

  it('refuses to delete the only courier, or one with days logged, and says why', async () => {
    const lone = await setup(false);
    await lone.user.click(screen.getByRole('button', { name: 'Delete My courier' }));
    await lone.user.click(screen.getByRole('button', { name: 'Delete courier' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('My courier is your only courier');
    expect(await lone.handle.db.outbox.count()).toBe(0);
    lone.unmount();

    const page = await setup();
    const day = stored({ date: '2025-03-03', stops: 10, extra: 0, notes: '', total: 1_980, ...entryFieldsBeforeCouriers('x'), courierId: 'evri', rateCardId: 'evri-card' }, 'd1');
    await page.handle.db.entries.put(day);
    await page.user.click(page.toggle(/Evri/));
    await page.user.click(screen.getByRole('button', { name: 'Delete Evri' }));
    await page.user.click(screen.getByRole('button', { name: 'Delete courier' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Evri cannot be deleted: 1 day is logged for it. Delete it first.');
    expect(await page.handle.db.outbox.count()).toBe(0);
  });

  it('deletes a courier with no days, with its cards', async () => {
    const page = await setup();
    await page.user.click(page.toggle(/Evri/));
    await page.user.click(screen.getByRole('button', { name: 'Delete Evri' }));
    await page.user.click(screen.getByRole('button', { name: 'Delete courier' }));
    await waitFor(() => expect(within(page.section).queryAllByRole('button', { name: /Evri/ })).toHaveLength(0));
    expect((await page.handle.db.outbox.orderBy('seq').toArray()).map((i) => [i.name, i.recordId])).toEqual([
      ['rateCard.delete', 'evri-card'],
      ['courier.delete', 'evri'],
    ]);
  });

  it('holds the query reminder’s days, saved as on the query page', async () => {
    const page = await setup(false);
    const section = screen.getByRole('region', { name: 'Statement queries' });
    const field = within(section).getByLabelText('Remind me when a sent query has had no answer for (days)');
    expect(field).toHaveValue('14');
    await page.user.clear(field);
    await page.user.type(field, '7');
    await page.user.click(within(section).getByRole('button', { name: 'Save days' }));
    await within(section).findByText('Saved on this device; it syncs when you are online.');
    expect((await page.handle.db.outbox.toArray()).map((i) => [i.name, i.args])).toEqual([['settings.put', { queryReminderDays: 7 }]]);
  });
});
