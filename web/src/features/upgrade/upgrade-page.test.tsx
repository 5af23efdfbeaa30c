import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, createFakeFetch, json, networkFailure, type FakeFetch, type FakeHandler } from '@/testing/fake-fetch';
import { makeProfileData, makeUser, syncedProfileDoc } from '@/testing/fixtures';
import { renderWithSync } from '@/testing/render-with-sync';
import { createTestSyncHandle } from '@/testing/sync-handle';
import type * as StartUpgrade from './start-upgrade';
import { openCheckout } from './start-upgrade';
import { UpgradePage } from './upgrade-page';

// Leaving the page for a checkout is the one thing jsdom cannot do: record it instead.
vi.mock('./start-upgrade', async (importOriginal) => ({ ...(await importOriginal<typeof StartUpgrade>()), openCheckout: vi.fn() }));

const CHECKOUT = 'POST /api/v1/billing/checkout';
let server: FakeFetch;

function serve(checkout: FakeHandler) {
  server = createFakeFetch({ [CHECKOUT]: checkout });
  vi.stubGlobal('fetch', server.fetch);
}

beforeEach(() => {
  vi.mocked(openCheckout).mockClear();
  serve(() => apiError(404, 'billing-disabled', 'Plans are managed by the operator'));
});

const plan = (name: string) => screen.getByRole('region', { name });

async function clickUpgrade() {
  const page = renderWithSync(<UpgradePage />, { path: '/app/upgrade', user: makeUser({ role: 'free' }) });
  await page.user.click(await screen.findByRole('button', { name: 'Upgrade to Pro' }));
  return page;
}

describe('UpgradePage', () => {
  it('compares Free and Pro, saying exactly what Pro gives: no banner', async () => {
    renderWithSync(<UpgradePage />, { path: '/app/upgrade' });
    await screen.findByRole('button', { name: 'Upgrade to Pro' });
    expect(screen.getByText(/Pro removes the banner, and that is all/)).toBeInTheDocument();
    expect(plan('Free')).toHaveTextContent('Every feature');
    expect(plan('Free')).toHaveTextContent('Shows ads: a small banner for Pro');
    expect(plan('Pro')).toHaveTextContent('£4.99 per month');
    expect(plan('Pro')).toHaveTextContent('Every feature, the same as Free');
    expect(plan('Pro')).toHaveTextContent('Ad-free: no banner');
    // Nothing promised that Pro does not give.
    expect(plan('Pro')).not.toHaveTextContent(/premium|priority/i);
  });

  it('offers a free user Upgrade to Pro; without a payment provider it says the operator sets plans', async () => {
    const page = renderWithSync(<UpgradePage />, { path: '/app/upgrade', user: makeUser({ role: 'free' }) });
    const upgrade = await within(await screen.findByRole('region', { name: 'Pro' })).findByRole('button', { name: 'Upgrade to Pro' });
    expect(upgrade).toBeEnabled();
    expect(plan('Free')).toHaveTextContent('Your plan');
    expect(screen.queryByRole('button', { name: 'Current Plan' })).not.toBeInTheDocument();

    await page.user.click(upgrade);
    const dialog = await screen.findByRole('alertdialog', { name: 'Ask your operator to switch you to Pro' });
    expect(dialog).toHaveAccessibleDescription(/managed by the person or company that runs it/);
    expect(server.callsTo(CHECKOUT)).toHaveLength(1);
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'OK' })).toHaveFocus());
    await page.user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(openCheckout).not.toHaveBeenCalled();
  });

  it('also sends the driver to the operator when the server has no billing at all', async () => {
    serve(() => apiError(404, 'not-found'));
    await clickUpgrade();
    expect(await screen.findByRole('alertdialog', { name: 'Ask your operator to switch you to Pro' })).toBeInTheDocument();
  });

  it('opens the checkout when the server has one', async () => {
    serve(() => json(200, { url: 'https://checkout.example.com/c/abc' }));
    await clickUpgrade();
    await waitFor(() => expect(openCheckout).toHaveBeenCalledWith('https://checkout.example.com/c/abc'));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it.each([
    [() => apiError(409, 'already-pro'), 'You are already on Pro'],
    [networkFailure, 'Upgrading needs a connection'],
    [() => apiError(502, 'provider-unavailable'), 'Checkout is not available right now'],
  ] as [FakeHandler, string][])('explains a checkout that cannot start (%#)', async (handler, title) => {
    serve(handler);
    await clickUpgrade();
    expect(await screen.findByRole('alertdialog', { name: title })).toBeInTheDocument();
    expect(openCheckout).not.toHaveBeenCalled();
  });

  it('shows a Pro user a disabled Current Plan, from the synced profile', async () => {
    const handle = createTestSyncHandle();
    await handle.db.docs.put(syncedProfileDoc(makeProfileData({ role: 'pro' })));
    renderWithSync(<UpgradePage />, { handle, path: '/app/upgrade', user: makeUser({ role: 'free' }) });
    const current = await screen.findByRole('button', { name: 'Current Plan' });
    expect(current).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Upgrade to Pro' })).not.toBeInTheDocument();
    expect(plan('Free')).not.toHaveTextContent('Your plan');
  });
});
