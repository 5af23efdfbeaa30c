import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json, networkFailure } from '@/testing/fake-fetch';
import { makeUser } from '@/testing/fixtures';
import { currentPath, renderApp } from '@/testing/render-app';

const SESSION = 'GET /api/v1/auth/session';
const PULL = 'GET /api/v1/sync/pull';
const PUSH = 'POST /api/v1/sync/push';

describe('app shell', () => {
  it('has the title, Sync Data and an avatar link in the header', async () => {
    const { router, user } = renderApp('/app/settings', { user: makeUser() });
    const header = await screen.findByRole('banner');

    // The screens' code loads on demand, so a navigation completes once it has.
    await user.click(within(header).getByRole('link', { name: 'Open profile' }));
    await waitFor(() => expect(currentPath(router)).toBe('/app/profile'));

    await user.click(within(header).getByRole('link', { name: 'Delivery Tracker' }));
    await waitFor(() => expect(currentPath(router)).toBe('/app/dashboard'));
    expect(within(header).getByRole('button', { name: 'Sync Data' })).toBeEnabled();
  });

  it('shows the profile picture when the user has one', async () => {
    renderApp('/app/dashboard', { user: makeUser({ photoURL: '/api/v1/files/me.jpg' }) });
    const avatarLink = await screen.findByRole('link', { name: 'Open profile' });
    expect(avatarLink.querySelector('img')).toHaveAttribute('src', '/api/v1/files/me.jpg');
  });

  it('reports a successful sync in an alert dialog that OK closes', async () => {
    const app = renderApp('/app/dashboard', { user: makeUser() });
    await clickSync(app);

    const dialog = await screen.findByRole('alertdialog', { name: 'Data synchronized successfully!' });
    // The sync at start-up pulled once; Sync Data ran a full cycle of its own.
    expect(app.server.callsTo(PULL).length).toBeGreaterThanOrEqual(2);
    // Focus moves in an effect, which can land just after the dialog is found.
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'OK' })).toHaveFocus());

    await app.user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('reports a failed sync and keeps the user signed in', async () => {
    const app = renderApp('/app/dashboard', { user: makeUser() });
    await screen.findByRole('heading', { name: 'Dashboard' });
    app.server.on(PULL, networkFailure);
    app.server.on(PUSH, networkFailure);

    await clickSync(app);

    expect(await screen.findByRole('alertdialog', { name: 'Failed to sync data. Please try again.' })).toBeInTheDocument();
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(currentPath(app.router)).toBe('/app/dashboard');
  });

  it('sends the user to /login when the sync finds the session gone', async () => {
    const app = renderApp('/app/dashboard', { user: makeUser() });
    await screen.findByRole('heading', { name: 'Dashboard' });
    app.server.on(PULL, () => apiError(401, 'unauthenticated'));
    app.server.on(SESSION, () => json(200, { user: null }));

    await clickSync(app);

    await waitFor(() => expect(currentPath(app.router)).toBe('/login'));
  });
});

describe('profile screen', () => {
  it('shows the name, email and plan label', async () => {
    renderApp('/app/profile', { user: makeUser({ role: 'pro' }) });
    expect(await screen.findByRole('heading', { name: 'Sam Driver' })).toBeInTheDocument();
    expect(screen.getByText('driver@example.com')).toBeInTheDocument();
    expect(screen.getByText('Pro Member')).toBeInTheDocument();
  });

  it('labels any role other than pro as Free User', async () => {
    renderApp('/app/profile', { user: makeUser({ role: 'free' }) });
    expect(await screen.findByText('Free User')).toBeInTheDocument();
    expect(screen.queryByText('Pro Member')).not.toBeInTheDocument();
  });

  it('signs out on the server and goes to the landing page', async () => {
    const app = renderApp('/app/profile', {
      user: makeUser(),
      routes: { 'POST /api/v1/auth/logout': () => new Response(null, { status: 204 }) },
    });

    await app.user.click(await screen.findByRole('button', { name: 'Sign Out' }));

    expect(await screen.findByText('Track your delivery stats efficiently')).toBeInTheDocument();
    expect(currentPath(app.router)).toBe('/');
    expect(app.server.callsTo('POST /api/v1/auth/logout')).toHaveLength(1);
  });

  it('stays signed in and says so when the sign-out request fails', async () => {
    const app = renderApp('/app/profile', { user: makeUser(), routes: { 'POST /api/v1/auth/logout': networkFailure } });

    await app.user.click(await screen.findByRole('button', { name: 'Sign Out' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to logout');
    expect(currentPath(app.router)).toBe('/app/profile');
  });
});

async function clickSync(app: ReturnType<typeof renderApp>) {
  await app.user.click(await screen.findByRole('button', { name: 'Sync Data' }));
}

