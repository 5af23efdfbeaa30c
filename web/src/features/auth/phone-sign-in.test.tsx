import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json, type FakeHandler } from '@/testing/fake-fetch';
import { makeUser } from '@/testing/fixtures';
import { currentPath, renderApp, waitForSession } from '@/testing/render-app';

const PROVIDERS = 'GET /api/v1/auth/providers';
const CHALLENGE = 'GET /api/v1/auth/phone/challenge';
const SEND = 'POST /api/v1/auth/phone/send';
const VERIFY = 'POST /api/v1/auth/phone/verify';

/** A real (tiny) ALTCHA challenge whose answer is 7, so the real solver runs. */
function challenge() {
  const salt = 'abc123?expires=9999999999&';
  // SHA-256 of salt + "7".
  const hash = '66ee1d59b532e387822d6c6b9ca3e762c7ce06887bb8ced3dba5598b9965e08a';
  return { algorithm: 'SHA-256', challenge: hash, maxnumber: 50, salt, signature: 'sig' };
}

function phoneRoutes(extra: Record<string, FakeHandler> = {}): Record<string, FakeHandler> {
  return {
    [PROVIDERS]: () => json(200, { phone: true, oidc: null }),
    [CHALLENGE]: () => json(200, challenge()),
    [SEND]: () => json(202, { verificationId: 'v-1' }),
    ...extra,
  };
}

async function openPhone(routes: Record<string, FakeHandler>) {
  const app = renderApp('/login', { routes });
  await waitForSession();
  await app.user.click(await screen.findByRole('button', { name: 'Sign in with Phone' }));
  // The phone form's code loads on demand.
  await screen.findByLabelText('Phone number');
  return app;
}

describe('phone sign-in', () => {
  it('is offered only when the server has an SMS sender', async () => {
    renderApp('/login');
    await waitForSession();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Continue as guest' })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Sign in with Phone' })).not.toBeInTheDocument();
  });

  it('checks the number format before solving or sending anything', async () => {
    const app = await openPhone(phoneRoutes());
    // Too short to be a UK number.
    await app.user.type(screen.getByLabelText('Phone number'), '+44 7700');
    await app.user.click(screen.getByRole('button', { name: 'Send code' }));

    expect(await screen.findByText('The phone number is entered in international format with a country code')).toBeInTheDocument();
    expect(app.server.callsTo(CHALLENGE)).toHaveLength(0);
    expect(app.server.callsTo(SEND)).toHaveLength(0);
  });

  it('solves the captcha invisibly, sends, verifies and lands on the dashboard', async () => {
    const user = makeUser({ email: null, isAnonymous: false });
    let verified = false;
    const app = await openPhone(
      phoneRoutes({
        [VERIFY]: () => {
          verified = true;
          return json(200, { user, isNewUser: true });
        },
        'GET /api/v1/auth/session': () => json(200, { user: verified ? user : null }),
      }),
    );
    await app.user.type(screen.getByLabelText('Phone number'), '+44 7700 900123');
    await app.user.click(screen.getByRole('button', { name: 'Send code' }));

    await screen.findByLabelText('Verification code');
    expect(app.server.callsTo(SEND)[0]?.body).toEqual({
      phone: '+447700900123',
      captcha: { algorithm: 'SHA-256', challenge: challenge().challenge, number: 7, salt: challenge().salt, signature: 'sig' },
    });
    expect(screen.getByRole('button', { name: /Resend code in \d+s/ })).toBeDisabled();

    await app.user.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect(screen.getByText('The verification code is required')).toBeInTheDocument();
    expect(app.server.callsTo(VERIFY)).toHaveLength(0);

    await app.user.type(screen.getByLabelText('Verification code'), '042917');
    await app.user.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    await waitFor(() => expect(currentPath(app.router)).toBe('/app/dashboard'));
    expect(app.server.callsTo(VERIFY)[0]?.body).toEqual({ verificationId: 'v-1', code: '042917' });
  });

  it("reads a national number in the server's region and shows it back nationally", async () => {
    const app = await openPhone(phoneRoutes());
    await app.user.type(screen.getByLabelText('Phone number'), '07700 900123');
    await app.user.click(screen.getByRole('button', { name: 'Send code' }));

    await screen.findByLabelText('Verification code');
    expect(app.server.callsTo(SEND)[0]?.body).toMatchObject({ phone: '+447700900123' });
    expect(await screen.findByText('We texted a code to 07700 900123. It works for 5 minutes.')).toBeInTheDocument();
  });

  it('uses the region /providers names', async () => {
    const app = await openPhone(phoneRoutes({ [PROVIDERS]: () => json(200, { phone: true, oidc: null, phoneRegion: 'US' }) }));
    await app.user.type(screen.getByLabelText('Phone number'), '(415) 555-2671');
    await app.user.click(screen.getByRole('button', { name: 'Send code' }));

    await screen.findByLabelText('Verification code');
    expect(app.server.callsTo(SEND)[0]?.body).toMatchObject({ phone: '+14155552671' });
    expect(await screen.findByText('We texted a code to (415) 555-2671. It works for 5 minutes.')).toBeInTheDocument();
  });

  it('retries once with a fresh challenge when the captcha was refused (difficulty rose meanwhile)', async () => {
    let sends = 0;
    const app = await openPhone(
      phoneRoutes({
        [SEND]: () => {
          sends += 1;
          return sends === 1
            ? apiError(400, 'captcha-failed', 'The security check failed. Please try again.')
            : json(202, { verificationId: 'v-2' });
        },
      }),
    );
    await app.user.type(screen.getByLabelText('Phone number'), '+44 7700 900123');
    await app.user.click(screen.getByRole('button', { name: 'Send code' }));

    await screen.findByLabelText('Verification code');
    expect(app.server.callsTo(CHALLENGE)).toHaveLength(2);
    expect(app.server.callsTo(SEND)).toHaveLength(2);
  });

  it('shows the server message for a wrong code and stays on the code step', async () => {
    const app = await openPhone(
      phoneRoutes({ [VERIFY]: () => apiError(400, 'invalid-verification-code', 'The verification code is incorrect') }),
    );
    await app.user.type(screen.getByLabelText('Phone number'), '+447700900123');
    await app.user.click(screen.getByRole('button', { name: 'Send code' }));
    await app.user.type(await screen.findByLabelText('Verification code'), '111111');
    await app.user.click(screen.getByRole('button', { name: 'Verify and sign in' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('The verification code is incorrect');
    expect(screen.getByLabelText('Verification code')).toBeInTheDocument();
    expect(currentPath(app.router)).toBe('/login');
  });

  it('explains a send limit and goes back to the other options', async () => {
    const app = await openPhone(
      phoneRoutes({
        [SEND]: () => apiError(429, 'rate-limited', 'Please wait 42 seconds before asking for another code.', { headers: { 'Retry-After': '42' } }),
      }),
    );
    await app.user.type(screen.getByLabelText('Phone number'), '+447700900123');
    await app.user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please wait 42 seconds before asking for another code.');

    await app.user.click(screen.getByRole('button', { name: 'Back to other sign-in options' }));
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
  });

  it('says why when the code was right but the browser dropped the session cookie', async () => {
    const user = makeUser({ email: null, isAnonymous: false });
    const app = await openPhone(phoneRoutes({ [VERIFY]: () => json(200, { user, isNewUser: true }) }));
    await app.user.type(screen.getByLabelText('Phone number'), '+44 7700 900123');
    await app.user.click(screen.getByRole('button', { name: 'Send code' }));
    await app.user.type(await screen.findByLabelText('Verification code'), '042917');
    await app.user.click(screen.getByRole('button', { name: 'Verify and sign in' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('This browser did not keep the sign-in');
    expect(currentPath(app.router)).toBe('/login');
    expect(screen.getByRole('button', { name: 'Verify and sign in' })).toBeEnabled();
  });
});
