// Sign-in with an OpenID provider in a popup, end to end: the real binary configured for a
// real provider (oidc-provider, e2e/oidc-provider.mjs, which signs in "driver-1" without a
// login form), driven in Chromium. A guest links the account in place, the same account
// signs in from the login page, and a second guest cannot take it.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let provider: ChildProcess;

/** A port nobody listens on now: the server's address must be known before it starts. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const address = probe.address();
  await new Promise((done) => probe.close(done));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function startProvider(redirectUri: string): Promise<{ child: ChildProcess; issuer: string }> {
  const child = spawn(process.execPath, ['e2e/oidc-provider.mjs', '--redirect-uri', redirectUri, '--client-secret', 'e2e-secret'], {
    cwd: new URL('..', import.meta.url).pathname,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const lines = createInterface({ input: child.stdout! });
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the OpenID provider did not start')), 30_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { issuer: string }).issuer);
    });
    child.once('exit', (code) => reject(new Error(`the OpenID provider exited with ${code}`)));
  });
  return { child, issuer };
}

before(async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = await startProvider(`${base}/api/v1/auth/oidc/callback`);
  provider = started.child;
  server = await startServer({
    LISTEN: `127.0.0.1:${port}`,
    PUBLIC_URL: base,
    OIDC_ISSUER: started.issuer,
    OIDC_CLIENT_ID: 'delivery-tracker',
    OIDC_CLIENT_SECRET: 'e2e-secret',
  });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  // Only the process this file started, by its handle.
  provider?.kill('SIGTERM');
});

async function sessionUser(page: Page): Promise<{ id: string; displayName: string; isAnonymous: boolean }> {
  return page.evaluate(async () => {
    const response = await fetch('/api/v1/auth/session');
    return ((await response.json()) as { user: { id: string; displayName: string; isAnonymous: boolean } }).user;
  });
}

async function continueAsGuest(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continue as guest' }).click();
  await page.waitForURL('**/app/dashboard');
}

/** Clicks `name` and waits for the popup it opens to finish its work and close itself. */
async function throughPopup(page: Page, name: string): Promise<void> {
  const opened = page.waitForEvent('popup');
  await page.getByRole('button', { name }).click();
  const popup = await opened;
  if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 20_000 });
}

describe('sign in with Google (a real OpenID provider)', () => {
  let linkedUserId = '';

  it('a guest links the account in place from the profile', async () => {
    const { context, page } = await newPage(browser, server);
    await continueAsGuest(page);
    const guest = await sessionUser(page);
    assert.equal(guest.isAnonymous, true);

    await page.goto('/app/profile');
    await throughPopup(page, 'Link Google account');
    // No longer a guest: the guest-only "Keep your account" card goes away.
    await page.getByRole('button', { name: 'Link Google account' }).waitFor({ state: 'detached' });

    const linked = await sessionUser(page);
    assert.equal(linked.id, guest.id, 'same account');
    assert.equal(linked.isAnonymous, false);
    assert.equal(linked.displayName, 'Test driver-1');
    linkedUserId = linked.id;
    await context.close();
  });

  it('signs in from the login page in a popup and lands on the dashboard', async () => {
    const { context, page } = await newPage(browser, server);
    await page.goto('/login');
    await throughPopup(page, 'Sign in with Google');
    await page.waitForURL('**/app/dashboard');
    const user = await sessionUser(page);
    assert.equal(user.id, linkedUserId, 'the account the guest linked');
    await context.close();
  });

  it('another guest cannot take an account that is already linked', async () => {
    const { context, page } = await newPage(browser, server);
    await continueAsGuest(page);
    const guest = await sessionUser(page);
    await page.goto('/app/profile');
    await throughPopup(page, 'Link Google account');
    await page.getByRole('alert').getByText('This Google account is already linked to another account').waitFor();
    const after = await sessionUser(page);
    assert.equal(after.id, guest.id);
    assert.equal(after.isAnonymous, true);
    await context.close();
  });
});
