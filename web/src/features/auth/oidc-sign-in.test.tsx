import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '@/testing/fake-fetch';
import { makeUser } from '@/testing/fixtures';
import { currentPath, renderApp, waitForSession } from '@/testing/render-app';

const PROVIDERS = 'GET /api/v1/auth/providers';
const withGoogle = { [PROVIDERS]: () => json(200, { phone: false, oidc: { label: 'Google' } }) };

describe('sign in with an OpenID provider', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows no button when the server offers none', async () => {
    renderApp('/login');
    await waitForSession();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Continue as guest' })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: /Sign in with/ })).not.toBeInTheDocument();
  });

  it('opens the popup from the click and explains a blocked one', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const app = renderApp('/login', { routes: withGoogle });
    await waitForSession();

    await app.user.click(await screen.findByRole('button', { name: 'Sign in with Google' }));

    expect(open).toHaveBeenCalledWith('/api/v1/auth/oidc/start', 'oidc-sign-in', expect.any(String));
    expect(await screen.findByRole('alert')).toHaveTextContent('The Google sign-in window was blocked');
  });

  it('refreshes the session and goes to the dashboard when our popup reports success', async () => {
    const popup = { closed: false };
    vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    const user = makeUser({ displayName: 'Test alice' });
    let signedIn = false;
    const app = renderApp('/login', {
      routes: {
        ...withGoogle,
        'GET /api/v1/auth/session': () => (signedIn ? json(200, { user }) : json(401, { error: { code: 'unauthenticated' } })),
      },
    });
    await waitForSession();
    await app.user.click(await screen.findByRole('button', { name: 'Sign in with Google' }));

    signedIn = true;
    window.dispatchEvent(
      new MessageEvent('message', { data: { type: 'oidc-result', ok: true, isNewUser: true }, origin: window.location.origin }),
    );

    await waitFor(() => expect(currentPath(app.router)).toBe('/app/dashboard'));
  });
});
