// The pages behind "Forgot password?" and the links the server sends: asking for a link (or
// being told the operator resets passwords), choosing a new password, and signing up with an
// invitation; every refusal in words, the server's password rules on the password field.
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json, networkFailure, type FakeHandler } from '@/testing/fake-fetch';
import { makeUser } from '@/testing/fixtures';
import { currentPath, renderApp, waitForSession } from '@/testing/render-app';

const PROVIDERS = 'GET /api/v1/auth/providers';
const FORGOT = 'POST /api/v1/auth/password/forgot';
const CHECK = 'POST /api/v1/auth/links/check';
const RESET = 'POST /api/v1/auth/password/reset';
const ACCEPT = 'POST /api/v1/auth/invite/accept';
const TOKEN = 'k3Y_token-0123456789abcdefghijklmnopqrstu';

const withReset = (passwordReset: boolean): Record<string, FakeHandler> => ({
  [PROVIDERS]: () => json(200, { phone: false, oidc: null, passwordReset }),
});
const link = (kind: 'password-reset' | 'invite', email = 'sam@example.com'): FakeHandler => () =>
  json(200, { kind, email, expiresAt: '2025-03-21T10:00:00Z' });

async function open(path: string, routes: Record<string, FakeHandler>) {
  const app = renderApp(path, { routes });
  await waitForSession();
  return app;
}

describe('Forgot password?', () => {
  it('is offered on the Login tab and opens the page', async () => {
    const app = await open('/login', withReset(true));
    await app.user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    expect(screen.queryByRole('link', { name: 'Forgot password?' })).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('tab', { name: 'Login' }));
    await app.user.click(screen.getByRole('link', { name: 'Forgot password?' }));
    expect(await screen.findByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument();
    expect(currentPath(app.router)).toBe('/forgot-password');
  });

  it('e-mails a link and answers the same whatever the server knows', async () => {
    const app = await open('/forgot-password', { ...withReset(true), [FORGOT]: () => json(202, { accepted: true }) });
    await app.user.click(await screen.findByRole('button', { name: 'Email me a link' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(app.server.callsTo(FORGOT)).toHaveLength(0);

    await app.user.type(screen.getByLabelText('Email'), ' pat@example.com ');
    await app.user.click(screen.getByRole('button', { name: 'Email me a link' }));
    const sent = await screen.findByRole('status');
    expect(sent).toHaveTextContent('If an account uses pat@example.com, we have emailed it a link to choose a new password.');
    expect(sent).toHaveTextContent('The link works once, within an hour.');
    expect(app.server.callsTo(FORGOT)[0]?.body).toEqual({ email: 'pat@example.com' });
  });

  it.each<[string, FakeHandler, string]>([
    ['offline', networkFailure, 'Asking for a link needs a connection.'],
    ['too many', () => apiError(429, 'rate-limited', 'Too many attempts. Try again in 40 minutes.'), 'Too many attempts. Try again in 40 minutes.'],
  ])('says why no link was sent (%s)', async (_case, answer, words) => {
    const app = await open('/forgot-password', { ...withReset(true), [FORGOT]: answer });
    await app.user.type(await screen.findByLabelText('Email'), 'pat@example.com');
    await app.user.click(screen.getByRole('button', { name: 'Email me a link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(words);
  });

  it('says plainly, without SMTP, that the operator resets passwords and how', async () => {
    await open('/forgot-password', withReset(false));
    expect(await screen.findByText(/This server does not send emails, so its operator resets passwords./)).toBeInTheDocument();
    expect(screen.getByText('delivery-tracker users reset-password YOUR-EMAIL')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Email me a link' })).not.toBeInTheDocument();
  });
});

describe('the reset link', () => {
  it('sets a new password, shows the server refusal on the field, then opens the app', async () => {
    const refusal = 'This password is made from the app\'s name or words of the job (like "delivery" or "van"). Please choose one that is harder to guess';
    let tries = 0;
    const app = await open(`/reset-password#${TOKEN}`, {
      [CHECK]: link('password-reset'),
      [RESET]: () => {
        tries += 1;
        return tries === 1
          ? apiError(422, 'weak-password', refusal, { fields: { password: [refusal] } })
          : json(200, { user: makeUser({ email: 'sam@example.com' }), isNewUser: false });
      },
    });
    expect(await screen.findByText('sam@example.com')).toBeInTheDocument();
    expect(app.server.callsTo(CHECK)[0]?.body).toEqual({ token: TOKEN });

    await app.user.type(screen.getByLabelText('New password'), 'van1');
    await app.user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(screen.getByText('Password should be at least 6 characters')).toBeInTheDocument();
    expect(app.server.callsTo(RESET)).toHaveLength(0);

    await app.user.type(screen.getByLabelText('New password'), '234');
    await app.user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await app.user.clear(screen.getByLabelText('New password'));
    await app.user.type(screen.getByLabelText('New password'), 'ringroad-dawn-7');
    await app.user.click(screen.getByRole('button', { name: 'Set new password' }));
    await waitFor(() => expect(currentPath(app.router)).toBe('/app/dashboard'));
    expect(app.server.callsTo(RESET)[1]?.body).toEqual({ token: TOKEN, password: 'ringroad-dawn-7' });
  });

  it.each<[string, string, FakeHandler]>([
    ['used or expired', `/reset-password#${TOKEN}`, () => apiError(410, 'link-expired', 'This link has expired or has already been used')],
    ['an invitation, not a reset', `/reset-password#${TOKEN}`, link('invite')],
    ['without its token', '/reset-password', link('password-reset')],
  ])('explains a link that no longer works (%s) and offers a new one', async (_case, path, check) => {
    const app = await open(path, { [CHECK]: check });
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired or has already been used.');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('link', { name: 'Email me a new link' }));
    await waitFor(() => expect(currentPath(app.router)).toBe('/forgot-password'));
  });

  it('says when the server cannot be reached, rather than that the link is dead', async () => {
    await open(`/reset-password#${TOKEN}`, { [CHECK]: networkFailure });
    expect(await screen.findByRole('alert')).toHaveTextContent('The server cannot be reached.');
  });
});

describe('the invitation link', () => {
  it('signs up with the invited address, fixed, and opens the app', async () => {
    const app = await open(`/invite#${TOKEN}`, {
      [CHECK]: link('invite', 'new.driver@example.com'),
      [ACCEPT]: () => json(201, { user: makeUser({ email: 'new.driver@example.com' }), isNewUser: true }),
    });
    // The address is the invitation's: shown, not a field to change.
    expect(await screen.findByText('new.driver@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Email' })).not.toBeInTheDocument();
    await app.user.type(screen.getByLabelText(/Display name/), ' Nat ');
    await app.user.type(screen.getByLabelText('Password'), 'ringroad-dawn-7');
    await app.user.click(screen.getByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(currentPath(app.router)).toBe('/app/dashboard'));
    expect(app.server.callsTo(ACCEPT)[0]?.body).toEqual({ token: TOKEN, password: 'ringroad-dawn-7', displayName: 'Nat' });
  });

  it('says when the address has an account by now', async () => {
    const app = await open(`/invite#${TOKEN}`, {
      [CHECK]: link('invite'),
      [ACCEPT]: () => apiError(409, 'email-already-in-use', 'This email is already registered'),
    });
    await app.user.type(await screen.findByLabelText('Password'), 'ringroad-dawn-7');
    await app.user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This email is already registered');
  });

  it('explains an invitation that no longer works', async () => {
    await open(`/invite#${TOKEN}`, { [CHECK]: () => apiError(410, 'link-expired', 'gone') });
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation has expired or has already been used.');
  });
});
