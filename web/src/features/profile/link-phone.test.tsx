import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Solver } from '@/lib/phone/captcha';
import { SessionContext } from '@/lib/session/session-context';
import { createSessionStore } from '@/lib/session/session-store';
import { apiError, createFakeFetch, json, type FakeHandler } from '@/testing/fake-fetch';
import { makeUser } from '@/testing/fixtures';
import { LinkPhone } from './link-phone';

const fakeSolve: Solver = async (challenge) => ({ ...challenge, number: 7 });
const challenge = { algorithm: 'SHA-256', challenge: 'c', maxnumber: 10, salt: 's?expires=1&', signature: 'sig' };

function setup(routes: Record<string, FakeHandler>) {
  const server = createFakeFetch({
    'GET /api/v1/auth/providers': () => json(200, { phone: true, oidc: null }),
    'GET /api/v1/auth/phone/challenge': () => json(200, challenge),
    'POST /api/v1/auth/phone/send': () => json(202, { verificationId: 'v-9' }),
    ...routes,
  });
  vi.stubGlobal('fetch', server.fetch);
  const session = createSessionStore();
  const signedIn = vi.spyOn(session, 'signedIn');
  render(
    <SessionContext.Provider value={session}>
      <LinkPhone solve={fakeSolve} />
    </SessionContext.Provider>,
  );
  return { server, signedIn, user: userEvent.setup() };
}

async function sendAndEnter(user: ReturnType<typeof userEvent.setup>, code: string) {
  await user.click(await screen.findByRole('button', { name: 'Add phone number' }));
  await user.type(screen.getByLabelText('Phone number'), '+447700900123');
  await user.click(screen.getByRole('button', { name: 'Send code' }));
  await user.type(await screen.findByLabelText('Verification code'), code);
  await user.click(screen.getByRole('button', { name: 'Verify and link' }));
}

afterEach(() => vi.unstubAllGlobals());

describe('Add phone number (guest profile)', () => {
  it('links the number and records the same user, no longer a guest', async () => {
    const linked = makeUser({ email: null, isAnonymous: false });
    const { server, signedIn, user } = setup({ 'POST /api/v1/auth/phone/verify': () => json(200, { user: linked, isNewUser: false }) });
    await sendAndEnter(user, '123456');
    await waitFor(() => expect(signedIn).toHaveBeenCalledWith(linked));
    expect(server.callsTo('POST /api/v1/auth/phone/send')[0]?.body).toMatchObject({ phone: '+447700900123', captcha: { number: 7 } });
    expect(server.callsTo('POST /api/v1/auth/phone/verify')[0]?.body).toEqual({ verificationId: 'v-9', code: '123456' });
  });

  it('says clearly when the number belongs to another account', async () => {
    const { signedIn, user } = setup({
      'POST /api/v1/auth/phone/verify': () => apiError(409, 'identity-in-use', 'This phone number is already linked to another account'),
    });
    await sendAndEnter(user, '123456');
    expect(await screen.findByRole('alert')).toHaveTextContent('This phone number is already linked to another account');
    expect(signedIn).not.toHaveBeenCalled();
  });

  it('is not offered when the server cannot text codes', async () => {
    setup({ 'GET /api/v1/auth/providers': () => json(200, { phone: false, oidc: null }) });
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled());
    expect(screen.queryByRole('button', { name: 'Add phone number' })).not.toBeInTheDocument();
  });
});
