import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json, networkFailure, pending, type FakeHandler } from '@/testing/fake-fetch';
import type { User } from '@/lib/session/user';
import { makeUser } from '@/testing/fixtures';
import { currentPath, renderApp, waitForSession } from '@/testing/render-app';

const SIGNUP = 'POST /api/v1/auth/signup';
const LOGIN = 'POST /api/v1/auth/login';
const GUEST = 'POST /api/v1/auth/guest';

async function openLogin(routes: Record<string, FakeHandler> = {}) {
  const app = renderApp('/login', { routes });
  await waitForSession();
  return app;
}

/** A server whose session reads signed in once `route` answered `user` (the browser kept the cookie). */
function signsIn(route: string, status: number, user: User): Record<string, FakeHandler> {
  let signedIn = false;
  return {
    [route]: () => {
      signedIn = true;
      return json(status, { user, isNewUser: status === 201 });
    },
    'GET /api/v1/auth/session': () => json(200, { user: signedIn ? user : null }),
  };
}

async function fill(app: Awaited<ReturnType<typeof openLogin>>, email: string, password: string) {
  if (email) await app.user.type(screen.getByLabelText('Email'), email);
  if (password) await app.user.type(screen.getByLabelText('Password'), password);
}

describe('login page', () => {
  it('toggles between Login and Sign Up; only Sign Up asks for a display name', async () => {
    const app = await openLogin();
    expect(screen.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByLabelText(/Display name/)).not.toBeInTheDocument();

    await app.user.click(screen.getByRole('tab', { name: 'Sign Up' }));

    expect(screen.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText(/Display name/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeInTheDocument();
  });

  it('requires email and password and sends nothing until they are given', async () => {
    const app = await openLogin();

    await app.user.click(screen.getByRole('button', { name: 'Login' }));

    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(app.server.callsTo(LOGIN)).toHaveLength(0);
  });

  it('checks the 6-character password minimum on the client', async () => {
    const app = await openLogin();
    await app.user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await fill(app, 'new@example.com', '12345');

    await app.user.click(screen.getByRole('button', { name: 'Sign Up' }));

    expect(screen.getByText('Password should be at least 6 characters')).toBeInTheDocument();
    expect(app.server.callsTo(SIGNUP)).toHaveLength(0);
  });

  it('rejects an email without an @ and a dot before asking the server', async () => {
    const app = await openLogin();
    await fill(app, 'driver.example.com', 'secret123');
    await app.user.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
    expect(app.server.callsTo(LOGIN)).toHaveLength(0);
  });

  it.each<[string, 'login' | 'sign-up', () => Response, string]>([
    ['email-already-in-use', 'sign-up', () => apiError(409, 'email-already-in-use', 'Email taken'), 'This email is already registered'],
    ['invalid-email', 'sign-up', () => apiError(422, 'invalid-email', 'bad'), 'Invalid email address'],
    [
      'weak-password (short)',
      'sign-up',
      () => apiError(422, 'weak-password', 'Password should be at least 6 characters'),
      'Password should be at least 6 characters',
    ],
    [
      'weak-password (common)',
      'sign-up',
      () => apiError(422, 'weak-password', 'This password is too common. Please choose another one.'),
      'This password is too common. Please choose another one.',
    ],
    ['invalid-credentials', 'login', () => apiError(401, 'invalid-credentials', 'Unauthorized'), 'Invalid email or password'],
    [
      'rate-limited',
      'login',
      () => apiError(429, 'rate-limited', 'Too many attempts. Try again in 30 seconds.', { headers: { 'Retry-After': '30' } }),
      'Too many attempts. Try again in 30 seconds.',
    ],
    ['any other code', 'login', () => apiError(422, 'validation', 'Something is off'), 'Something is off'],
    ['no message (sign up)', 'sign-up', () => apiError(500, 'internal'), 'Failed to create account'],
    ['network failure (login)', 'login', networkFailure, 'Failed to login'],
    ['network failure (sign up)', 'sign-up', networkFailure, 'Failed to create account'],
  ])('shows the spec message for %s', async (_case, mode, respond, expected) => {
    const route = mode === 'login' ? LOGIN : SIGNUP;
    const app = await openLogin({ [route]: respond });
    if (mode === 'sign-up') await app.user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await fill(app, 'driver@example.com', 'secret123');

    await app.user.click(screen.getByRole('button', { name: mode === 'login' ? 'Login' : 'Sign Up' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(expected);
    expect(currentPath(app.router)).toBe('/login');
  });

  it('shows the server field errors next to their fields', async () => {
    const app = await openLogin({
      [SIGNUP]: () => apiError(422, 'validation', 'Please check the form', { fields: { displayName: ['Display name is too long'] } }),
    });
    await app.user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await fill(app, 'driver@example.com', 'secret123');
    await app.user.click(screen.getByRole('button', { name: 'Sign Up' }));

    expect(await screen.findByText('Display name is too long')).toBeInTheDocument();
    expect(screen.getByLabelText(/Display name/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows a password the server refused under the Password field, not twice', async () => {
    const why = 'This is one of the most common passwords, among the first anyone would try. Please choose a less predictable one';
    const app = await openLogin({ [SIGNUP]: () => apiError(422, 'weak-password', why, { fields: { password: [why] } }) });
    await app.user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await fill(app, 'driver@example.com', 'iloveyou');
    await app.user.click(screen.getByRole('button', { name: 'Sign Up' }));

    expect(await screen.findByText(why)).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(why);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('logs in and opens the dashboard', async () => {
    const user = makeUser();
    const app = await openLogin(signsIn(LOGIN, 200, user));
    await fill(app, 'driver@example.com', 'secret123');

    await app.user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(currentPath(app.router)).toBe('/app/dashboard');
    expect(app.server.callsTo(LOGIN)[0]?.body).toEqual({ email: 'driver@example.com', password: 'secret123' });
  });

  it('signs up with the optional display name', async () => {
    const user = makeUser({ displayName: 'Alex' });
    const app = await openLogin(signsIn(SIGNUP, 201, user));
    await app.user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await app.user.type(screen.getByLabelText(/Display name/), '  Alex ');
    await fill(app, 'alex@example.com', 'secret123');

    await app.user.click(screen.getByRole('button', { name: 'Sign Up' }));

    await waitFor(() => expect(currentPath(app.router)).toBe('/app/dashboard'));
    expect(app.server.callsTo(SIGNUP)[0]?.body).toEqual({ email: 'alex@example.com', password: 'secret123', displayName: 'Alex' });
  });

  it('omits an empty display name', async () => {
    const app = await openLogin(signsIn(SIGNUP, 201, makeUser()));
    await app.user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await fill(app, 'alex@example.com', 'secret123');
    await app.user.click(screen.getByRole('button', { name: 'Sign Up' }));

    await waitFor(() => expect(currentPath(app.router)).toBe('/app/dashboard'));
    expect(app.server.callsTo(SIGNUP)[0]?.body).toEqual({ email: 'alex@example.com', password: 'secret123' });
  });

  it('continues as guest', async () => {
    const guest = makeUser({ email: null, displayName: 'User', isAnonymous: true });
    const app = await openLogin(signsIn(GUEST, 201, guest));

    await app.user.click(screen.getByRole('button', { name: 'Continue as guest' }));

    await waitFor(() => expect(currentPath(app.router)).toBe('/app/dashboard'));
    expect(app.server.callsTo(GUEST)).toHaveLength(1);
  });

  it.each<[string, string]>([
    ['sign-up', 'Your account was created: once that is fixed, log in with the same e-mail and password.'],
    // jsdom's page is on http://localhost, where a browser that drops the cookie blocks cookies.
    ['login', "it refused this site's cookie. Allow cookies for localhost"],
  ])('says why when the %s succeeded but the browser dropped the session cookie', async (mode, expected) => {
    // The server answered with a user, yet the next session check reads signed out.
    const route = mode === 'login' ? LOGIN : SIGNUP;
    const app = await openLogin({ [route]: () => json(mode === 'login' ? 200 : 201, { user: makeUser(), isNewUser: mode !== 'login' }) });
    if (mode === 'sign-up') await app.user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await fill(app, 'driver@example.com', 'secret123');

    await app.user.click(screen.getByRole('button', { name: mode === 'login' ? 'Login' : 'Sign Up' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This browser did not keep the sign-in');
    expect(alert).toHaveTextContent(expected);
    expect(currentPath(app.router)).toBe('/login');
    expect(screen.getByRole('button', { name: mode === 'login' ? 'Login' : 'Sign Up' })).toBeEnabled();
  });

  it('trusts the sign-in when the session check cannot reach the server', async () => {
    const user = makeUser();
    let checks = 0;
    const app = await openLogin({
      [LOGIN]: () => json(200, { user, isNewUser: false }),
      'GET /api/v1/auth/session': () => (++checks === 1 ? json(200, { user: null }) : networkFailure()),
    });
    await fill(app, 'driver@example.com', 'secret123');
    await app.user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(currentPath(app.router)).toBe('/app/dashboard'));
  });

  it('falls back to "Failed to login" when guest sign-in cannot reach the server', async () => {
    const app = await openLogin({ [GUEST]: networkFailure });
    await app.user.click(screen.getByRole('button', { name: 'Continue as guest' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to login');
  });

  it('disables both buttons while a request is in flight', async () => {
    const app = await openLogin({ [LOGIN]: () => pending() });
    await fill(app, 'driver@example.com', 'secret123');

    await app.user.click(screen.getByRole('button', { name: 'Login' }));

    expect(screen.getByRole('button', { name: 'Login' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Continue as guest' })).toBeDisabled();
  });
});

describe("the operator's switches", () => {
  it('offers only sign-in when the server closed sign-ups, and no guest button when guests are off', async () => {
    renderApp('/login', { routes: { ['GET /api/v1/auth/providers']: () => json(200, { phone: false, oidc: null, signups: false, guests: false }) } });
    await waitForSession();
    expect(await screen.findByText('New accounts are closed on this server. Sign in with an account you already have.')).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Sign Up' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue as guest' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
  });

  it('offers everything when an older server does not say', async () => {
    renderApp('/login', { routes: { ['GET /api/v1/auth/providers']: () => json(200, { phone: false, oidc: null }) } });
    await waitForSession();
    expect(await screen.findByRole('tab', { name: 'Sign Up' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue as guest' })).toBeInTheDocument();
  });
});
