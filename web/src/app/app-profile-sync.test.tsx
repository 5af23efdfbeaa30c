// The shell's part in the profile issue: the house banner for free users, the synced theme,
// and the session user (header avatar, greeting) following the profile as it syncs.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Change } from '@/sync/types';
import { json, type FakeHandler } from '@/testing/fake-fetch';
import { makeProfileData, makeUser } from '@/testing/fixtures';
import { currentPath, renderApp } from '@/testing/render-app';

const PULL = 'GET /api/v1/sync/pull';

/** A server whose pulls send `changes` (every time: a device applies each version once). */
function pullSends(changes: Change[]): FakeHandler {
  return () => json(200, { changes, cursor: changes.length, hasMore: false });
}

afterEach(() => {
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});

describe('Pro banner', () => {
  it('shows free users a house banner that leads to the plans', async () => {
    const app = renderApp('/app/dashboard', { user: makeUser({ role: 'free' }) });
    const banner = await screen.findByRole('complementary', { name: 'Pro plan' });
    expect(banner).toHaveTextContent('£4.99 a month');
    expect(banner.querySelector('img, iframe, script')).toBeNull(); // a house banner: nothing from elsewhere
    await app.user.click(within(banner).getByRole('link', { name: 'Go ad-free with Pro for £4.99 a month' }));
    expect(await screen.findByRole('button', { name: 'Upgrade to Pro' })).toBeInTheDocument();
    expect(currentPath(app.router)).toBe('/app/upgrade');
    // The plans page says it all: no banner there.
    expect(screen.queryByRole('complementary', { name: 'Pro plan' })).not.toBeInTheDocument();
  });

  it('hides for a week on this device', async () => {
    const first = renderApp('/app/dashboard', { user: makeUser({ role: 'free' }) });
    const banner = await screen.findByRole('complementary', { name: 'Pro plan' });
    await first.user.click(within(banner).getByRole('button', { name: 'Hide for a week' }));
    expect(screen.queryByRole('complementary', { name: 'Pro plan' })).not.toBeInTheDocument();
    first.unmount();

    // The next start on this device remembers it.
    renderApp('/app/dashboard', { user: makeUser({ role: 'free' }) });
    await screen.findByRole('heading', { name: 'Dashboard' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save Entry' })).toBeEnabled()); // the profile has been read
    expect(screen.queryByRole('complementary', { name: 'Pro plan' })).not.toBeInTheDocument();
  });

  it('shows no banner to Pro users', async () => {
    renderApp('/app/dashboard', { user: makeUser({ role: 'pro' }) });
    await screen.findByRole('heading', { name: 'Dashboard' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save Entry' })).toBeEnabled()); // the profile has been read
    expect(screen.queryByRole('complementary', { name: 'Pro plan' })).not.toBeInTheDocument();
  });

  it('goes away when the operator makes the user Pro (the plan arrives by sync)', async () => {
    renderApp('/app/profile', {
      user: makeUser({ role: 'free' }),
      routes: { [PULL]: pullSends([{ kind: 'profile', id: 'p', version: 4, deleted: false, data: makeProfileData({ role: 'pro' }) }]) },
    });
    expect(await screen.findByRole('link', { name: 'Pro Member' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('complementary', { name: 'Pro plan' })).not.toBeInTheDocument());
  });
});

describe('plans turned off by the operator (PLANS_ENABLED=false)', () => {
  const noPlans = makeUser({ role: 'free', plansEnabled: false });

  it('shows no banner and no plan label', async () => {
    renderApp('/app/profile', { user: noPlans });
    expect(await screen.findByRole('heading', { name: 'Sam Driver' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit Profile' })).toBeEnabled());
    expect(screen.queryByRole('complementary', { name: 'Pro plan' })).not.toBeInTheDocument();
    expect(screen.queryByText('Free User')).not.toBeInTheDocument();
    expect(screen.queryByText('Pro Member')).not.toBeInTheDocument();
  });

  it('sends the upgrade page to the dashboard', async () => {
    const app = renderApp('/app/upgrade', { user: noPlans });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(currentPath(app.router)).toBe('/app/dashboard');
    expect(screen.queryByRole('button', { name: 'Upgrade to Pro' })).not.toBeInTheDocument();
  });
});

describe('theme', () => {
  it('applies the theme from the synced settings, and remembers it for the next start', async () => {
    renderApp('/app/dashboard', {
      user: makeUser(),
      routes: { [PULL]: pullSends([{ kind: 'settings', id: 's', version: 2, deleted: false, data: { theme: 'light', taxRegion: 'uk', quarters: 'standard', queryReminderDays: 14, updatedAt: '2025-03-21T09:00:00Z' } }]) },
    });
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('light'));
    expect(localStorage.getItem('delivery-tracker:theme')).toBe('light');
  });

  it('is dark by default', async () => {
    document.documentElement.dataset.theme = 'light';
    renderApp('/app/dashboard', { user: makeUser() });
    await screen.findByRole('heading', { name: 'Dashboard' });
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
  });

  it('switches with the toggle in Account Settings, and sends the setting', async () => {
    const app = renderApp('/app/profile', { user: makeUser() });
    const group = await screen.findByRole('group', { name: 'Theme' });
    await waitFor(() => expect(within(group).getByRole('button', { name: 'Dark' })).toHaveAttribute('aria-pressed', 'true'));

    await app.user.click(within(group).getByRole('button', { name: 'Light' }));

    expect(document.documentElement.dataset.theme).toBe('light');
    await waitFor(() => expect(within(group).getByRole('button', { name: 'Light' })).toHaveAttribute('aria-pressed', 'true'));
    await waitFor(() => {
      const pushed = app.server.callsTo('POST /api/v1/sync/push').flatMap((call) => (call.body as { mutations: { name: string; args: unknown }[] }).mutations);
      expect(pushed).toContainEqual(expect.objectContaining({ name: 'settings.put', args: { theme: 'light' } }));
    });
    expect(localStorage.getItem('delivery-tracker:theme')).toBe('light');
  });
});

describe('session follows the profile', () => {
  it('shows a picture and name changed on another device in the header and greeting', async () => {
    const changes: Change[] = [];
    const app = renderApp('/app/dashboard', {
      user: makeUser({ displayName: 'Sam Driver', photoURL: null }),
      routes: { [PULL]: () => json(200, { changes, cursor: changes.length, hasMore: false }) },
    });
    const header = await screen.findByRole('banner');
    const avatar = () => within(header).getByRole('link', { name: 'Open profile' }).querySelector('img');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save Entry' })).toBeEnabled());
    expect(avatar()).toBeNull();

    changes.push({ kind: 'profile', id: 'p', version: 7, deleted: false, data: makeProfileData({ displayName: 'Samira Khan', photoURL: '/api/v1/files/users/u/profile_2' }) });
    await app.user.click(within(header).getByRole('button', { name: 'Sync Data' }));

    await waitFor(() => expect(avatar()).toHaveAttribute('src', '/api/v1/files/users/u/profile_2'));
    expect(app.session.getState().user).toMatchObject({ displayName: 'Samira Khan', photoURL: '/api/v1/files/users/u/profile_2' });
    expect(within(screen.getByRole('region', { name: 'Greeting' })).getByRole('heading')).toHaveTextContent(/, Samira!/);
  });
});
