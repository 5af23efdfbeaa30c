import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SUCCESS_MESSAGE_MS } from '@/lib/flash';
import type * as Commands from '@/sync/commands';
import { updateProfile } from '@/sync/commands';
import type { PayTier } from '@/sync/types';
import { makeProfileData, syncedProfileDoc } from '@/testing/fixtures';
import { renderWithSync } from '@/testing/render-with-sync';
import { createTestSyncHandle } from '@/testing/sync-handle';
import { SettingsPage } from './settings-page';

// The real command, wrapped so a test can hold a save in flight or make it fail.
vi.mock('@/sync/commands', async (importOriginal) => {
  const real = await importOriginal<typeof Commands>();
  return { ...real, updateProfile: vi.fn(real.updateProfile) };
});

async function setup(tiers?: PayTier[]) {
  const handle = createTestSyncHandle();
  if (tiers) await handle.db.docs.put(syncedProfileDoc(makeProfileData({ paymentConfig: { tiers } })));
  const app = renderWithSync(<SettingsPage />, { handle, path: '/app/settings' });
  await screen.findByRole('region', { name: 'Pay tiers' });
  const input = (name: string) => screen.getByRole('spinbutton', { name }) as HTMLInputElement;
  return {
    ...app,
    stops: (tier: number) => input(`Tier ${tier}: up to how many stops`),
    rate: (tier: number) => input(`Tier ${tier}: rate (£ per stop)`),
    finalRate: () => input('After that: rate (£ per stop)'),
    tiers: () => within(screen.getByRole('region', { name: 'Pay tiers' })).getAllByRole('listitem'),
    add: () => app.user.click(screen.getByRole('button', { name: 'Add Tier' })),
    save: () => app.user.click(screen.getByRole('button', { name: /^(Save|Saving\.\.\.)$/ })),
    saveButton: () => screen.getByRole('button', { name: /^(Save|Saving\.\.\.)$/ }),
    example: () => screen.getByText(/-stop day pays/).parentElement!,
  };
}

describe('SettingsPage', () => {
  it('is loading until the profile has been read', () => {
    renderWithSync(<SettingsPage />, { path: '/app/settings' });
    expect(screen.getByRole('status', { name: 'Loading payment settings' })).toBeInTheDocument();
  });

  it('shows the default tiers when none are stored: up to 110 stops at £1.98, after that £1.48', async () => {
    const page = await setup();
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

  it('shows the tiers stored in the profile', async () => {
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

  it('saves on the device with its outbox item, nudges sync, and says saved for 3 s', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const page = await setup();
    await page.add();
    await page.save();

    expect(await screen.findByText('Payment settings saved successfully!')).toBeInTheDocument();
    const [item] = await page.handle.db.outbox.toArray();
    expect(item).toMatchObject({
      name: 'profile.update',
      args: { paymentConfig: { tiers: [{ stopCount: 110, rate: 198 }, { stopCount: 130, rate: 173 }, { rate: 148 }] } },
    });
    expect(page.handle.requestSync).toHaveBeenCalledTimes(1);
    // The stored list is now the saved one: still three tiers, nothing left to save.
    await waitFor(() => expect(screen.getByText('Saved on this device, waiting to sync')).toBeInTheDocument());
    expect(page.tiers()).toHaveLength(3);
    expect(page.saveButton()).toBeDisabled();

    const hideTimers = () => timers.mock.calls.filter(([, ms]) => ms === SUCCESS_MESSAGE_MS);
    await waitFor(() => expect(hideTimers()).toHaveLength(1));
    act(() => (hideTimers()[0]![0] as () => void)());
    expect(screen.queryByText('Payment settings saved successfully!')).not.toBeInTheDocument();
  });

  it('says Saving... and is disabled while the save is in flight', async () => {
    let finish: () => void = () => undefined;
    vi.mocked(updateProfile).mockImplementationOnce(() => new Promise<void>((resolve) => (finish = resolve)));
    const page = await setup();
    await page.add();
    await page.save();
    expect(page.saveButton()).toHaveTextContent('Saving...');
    expect(page.saveButton()).toBeDisabled();
    await act(async () => finish());
    expect(await screen.findByText('Payment settings saved successfully!')).toBeInTheDocument();
  });

  it('reports a failed save and keeps the edits', async () => {
    vi.mocked(updateProfile).mockRejectedValueOnce(new Error('boom'));
    const page = await setup();
    await page.add();
    await page.save();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to save payment settings');
    expect(page.tiers()).toHaveLength(3);
    expect(page.saveButton()).toBeEnabled();
  });

  it('says so when the settings cannot be read', async () => {
    const handle = createTestSyncHandle();
    vi.spyOn(handle.db, 'getDoc').mockRejectedValue(new Error('broken'));
    renderWithSync(<SettingsPage />, { handle, path: '/app/settings' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load payment settings');
  });

  it('follows tiers synced in from another device while nothing is being edited', async () => {
    const page = await setup();
    await act(() => page.handle.db.docs.put(syncedProfileDoc(makeProfileData({ paymentConfig: { tiers: [{ stopCount: 90, rate: 210 }, { rate: 160 }] } }), 2)));
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
