import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { pending } from '@/testing/fake-fetch';
import { makeUser } from '@/testing/fixtures';
import { currentPath, renderApp, waitForSession } from '@/testing/render-app';

describe('route guards', () => {
  it('shows an accessible full-screen spinner on /app while the session loads', async () => {
    renderApp('/app/dashboard', { routes: { 'GET /api/v1/auth/session': () => pending() } });

    // The app's code loads on demand first (the boot splash shows meanwhile).
    expect(await screen.findByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Dashboard' })).not.toBeInTheDocument();
  });

  it('sends a signed-out visitor from /app/* to /login', async () => {
    const { router } = renderApp('/app/settings');

    expect(await screen.findByRole('tab', { name: 'Login' })).toBeInTheDocument();
    expect(currentPath(router)).toBe('/login');
  });

  it('treats an unreachable server as signed out for now', async () => {
    const { router } = renderApp('/app/profile', {
      routes: {
        'GET /api/v1/auth/session': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });

    await waitFor(() => expect(currentPath(router)).toBe('/login'));
  });

  it('sends a signed-in user opening a public route to /app/dashboard', async () => {
    for (const path of ['/', '/login', '/contact', '/privacy', '/terms']) {
      const { router, unmount } = renderApp(path, { user: makeUser() });
      expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
      expect(currentPath(router)).toBe('/app/dashboard');
      unmount();
    }
  });

  it('opens /app at /app/dashboard', async () => {
    const { router } = renderApp('/app', { user: makeUser() });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(currentPath(router)).toBe('/app/dashboard');
  });

  it('lets a signed-in user reach each app screen', async () => {
    const screens: [string, string][] = [
      ['/app/profile', 'Profile'],
      ['/app/history', 'All Entries'],
      ['/app/settings', 'Payment Settings'],
      ['/app/upgrade', 'Upgrade to Pro'],
      ['/app/contact', 'Contact Us'],
      ['/app/privacy', 'Privacy Policy'],
      ['/app/terms', 'Terms of Service'],
    ];
    for (const [path, heading] of screens) {
      const { router, unmount } = renderApp(path, { user: makeUser() });
      expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
      expect(currentPath(router)).toBe(path);
      unmount();
    }
  });

  it('redirects unknown paths to / (signed out)', async () => {
    for (const path of ['/nope', '/app-x', '/login/extra']) {
      const { router, unmount } = renderApp(path);
      expect(await screen.findByText('Track your delivery stats efficiently')).toBeInTheDocument();
      expect(currentPath(router)).toBe('/');
      unmount();
    }
  });

  it('redirects unknown paths to / and from there a signed-in user to the dashboard', async () => {
    const { router } = renderApp('/app/nothing-here', { user: makeUser() });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(currentPath(router)).toBe('/app/dashboard');
  });

  it('shows signed-out visitors the terms banner on public pages', async () => {
    renderApp('/privacy');
    await waitForSession();

    const banner = await screen.findByRole('complementary', { name: 'Terms notice' });
    expect(banner).toHaveTextContent('Terms of Service');
    await screen.findByText('Last updated: March 21, 2025');
    expect(screen.getByText('Last updated: March 21, 2025')).toBeInTheDocument();
  });
});
