import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, createFakeFetch, json, noContent, type FakeFetch } from '@/testing/fake-fetch';
import { makeUser } from '@/testing/fixtures';
import { renderWithSync } from '@/testing/render-with-sync';
import { ChangePassword } from './change-password';
import { GuestUpgrade } from './guest-upgrade';
import { SessionsCard } from './sessions-card';

const now = new Date().toISOString();
const phone = { id: 'a1', device: 'Chrome on Android', createdAt: now, lastSeenAt: now, current: true };
const laptop = { id: 'b2', device: 'Firefox on Linux', createdAt: now, lastSeenAt: '2025-03-21T14:05:00Z', current: false };
const depot = { id: 'c3', device: 'Edge on Windows', createdAt: now, lastSeenAt: now, current: false };

function serve(routes: Parameters<typeof createFakeFetch>[0]): FakeFetch {
  const server = createFakeFetch(routes);
  vi.stubGlobal('fetch', server.fetch);
  return server;
}

afterEach(() => vi.unstubAllGlobals());

describe('SessionsCard', () => {
  it('lists the devices, marks this one, and signs another out', async () => {
    let sessions = [phone, laptop, depot];
    const server = serve({
      'GET /api/v1/auth/sessions': () => json(200, { sessions }),
      'DELETE /api/v1/auth/sessions/b2': () => {
        sessions = sessions.filter((s) => s.id !== 'b2');
        return noContent();
      },
    });
    const { user } = renderWithSync(<SessionsCard />);
    const card = await screen.findByRole('region', { name: 'Your devices' });
    const items = await within(card).findAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('Chrome on AndroidThis device');
    expect(items[0]).toHaveTextContent('Active now');
    expect(within(items[0]!).queryByRole('button')).toBeNull();
    expect(items[1]).toHaveTextContent('Last active 21/03/2025');

    await user.click(within(card).getByRole('button', { name: 'Sign out Firefox on Linux' }));
    expect(await within(card).findByText('Firefox on Linux signed out')).toBeInTheDocument();
    await waitFor(() => expect(within(card).getAllByRole('listitem')).toHaveLength(2));
    expect(server.callsTo('DELETE /api/v1/auth/sessions/b2')).toHaveLength(1);
  });

  it('signs out every other device at once', async () => {
    const server = serve({
      'GET /api/v1/auth/sessions': () => json(200, { sessions: [phone, laptop, depot] }),
      'POST /api/v1/auth/sessions/end-others': () => json(200, { ended: 2 }),
    });
    const { user } = renderWithSync(<SessionsCard />);
    await user.click(await screen.findByRole('button', { name: 'Sign out all other devices' }));
    expect(await screen.findByText('Signed out of 2 other devices')).toBeInTheDocument();
    expect(server.callsTo('POST /api/v1/auth/sessions/end-others')).toHaveLength(1);
  });

  it('says the list needs a connection when offline', async () => {
    serve({
      'GET /api/v1/auth/sessions': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderWithSync(<SessionsCard />);
    expect(await screen.findByText('Your devices can be seen when you are online.')).toBeInTheDocument();
  });
});

describe('ChangePassword', () => {
  it('asks for both passwords, names a wrong current one, and confirms a change', async () => {
    const server = serve({ 'POST /api/v1/auth/password': () => apiError(403, 'wrong-password', 'Current password is incorrect') });
    const { user } = renderWithSync(<ChangePassword />);
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(screen.getByText('Current password is required')).toBeInTheDocument();
    expect(screen.getByText('New password is required')).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);

    await user.type(screen.getByLabelText('Current password'), 'wrong-one');
    await user.type(screen.getByLabelText('New password'), 'kestrel-route-7');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();

    server.on('POST /api/v1/auth/password', () => json(200, { endedSessions: 2 }));
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password changed. Signed out of 2 other devices.')).toBeInTheDocument();
    expect(server.callsTo('POST /api/v1/auth/password').at(-1)?.body).toEqual({
      currentPassword: 'wrong-one',
      newPassword: 'kestrel-route-7',
      endOtherSessions: true,
    });
  });

  it('shows a new password the server refused under the New password field', async () => {
    const why = 'This password is made from your email address. Please choose one that is harder to guess';
    serve({ 'POST /api/v1/auth/password': () => apiError(422, 'weak-password', why, { fields: { newPassword: [why] } }) });
    const { user } = renderWithSync(<ChangePassword />);
    await user.type(screen.getByLabelText('Current password'), 'van-route-42');
    await user.type(screen.getByLabelText('New password'), 'SamDriver!');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText(why)).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(why);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('GuestUpgrade', () => {
  it('shows a password the server refused under the Password field', async () => {
    const why = 'This is one of the most common passwords, among the first anyone would try. Please choose a less predictable one';
    serve({ 'POST /api/v1/auth/link/password': () => apiError(422, 'weak-password', why, { fields: { password: [why] } }) });
    const { user } = renderWithSync(<GuestUpgrade />, { user: makeUser({ isAnonymous: true, email: null }) });
    await user.type(screen.getByLabelText('Email'), 'sam@example.com');
    await user.type(screen.getByLabelText('Password'), 'qwertyuiop');
    await user.click(screen.getByRole('button', { name: 'Save account' }));
    expect(await screen.findByText(why)).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
  });

  it('saves the guest account in place and refuses an e-mail someone else has', async () => {
    const guest = makeUser({ isAnonymous: true, email: null });
    const server = serve({ 'POST /api/v1/auth/link/password': () => apiError(409, 'email-already-in-use', 'This email is already registered') });
    const { user, session } = renderWithSync(<GuestUpgrade />, { user: guest });
    await user.type(screen.getByLabelText('Email'), 'sam@example.com');
    await user.type(screen.getByLabelText('Password'), 'van-route-42');
    await user.click(screen.getByRole('button', { name: 'Save account' }));
    expect(await screen.findByText('This email is already registered')).toBeInTheDocument();
    expect(session.getState().user?.isAnonymous).toBe(true);

    server.on('POST /api/v1/auth/link/password', () =>
      json(200, { user: { ...guest, email: 'sam@example.com', isAnonymous: false }, isNewUser: false }),
    );
    await user.click(screen.getByRole('button', { name: 'Save account' }));
    await waitFor(() => expect(session.getState().user).toMatchObject({ id: guest.id, email: 'sam@example.com', isAnonymous: false }));
  });

  it('checks the e-mail and password before asking the server', async () => {
    const server = serve({});
    const { user } = renderWithSync(<GuestUpgrade />, { user: makeUser({ isAnonymous: true, email: null }) });
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), '123');
    await user.click(screen.getByRole('button', { name: 'Save account' }));
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Password should be at least 6 characters')).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);
  });
});
