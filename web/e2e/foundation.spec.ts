// [1/5] Foundation, end to end: routes and guards, sign-up, login errors, guest, sign-out,
// the session cookie, and the admin CLI — the real binary in real Chromium.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { logIn, newPage, signUp, uniqueEmail, serverAndBrowser } from './harness';

const run = serverAndBrowser();

function path(page: Page): string {
  return new URL(page.url()).pathname;
}

describe('signed-out visitor', () => {
  it('sees the public pages and is kept out of /app', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await page.goto('/');
    await page.getByText('Track your delivery stats efficiently').first().waitFor();
    await page.getByRole('link', { name: /terms/i }).first().waitFor();

    for (const [route, text] of [
      ['/privacy', 'March 21, 2025'],
      ['/terms', 'March 22, 2025'],
      ['/contact', 'Contact'],
    ] as const) {
      await page.goto(route);
      await page.getByText(text).first().waitFor();
    }

    await page.goto('/app/dashboard');
    await page.waitForURL('**/login');
    await page.goto('/no/such/page');
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });
});

describe('email and password', () => {
  it('signs up, stays signed in across reloads, and signs out to /', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    const email = uniqueEmail('signup');
    await signUp(page, email, 'van-route-42', 'Sam Driver');
    await page.waitForURL('**/app/dashboard');

    // App shell: title, Sync Data, avatar link, bottom bar with Home highlighted.
    await page.getByRole('button', { name: 'Sync Data' }).waitFor();
    await page.getByRole('link', { name: 'Open profile' }).waitFor();
    const home = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' });
    assert.equal(await home.getAttribute('aria-current'), 'page');

    // The session cookie is HttpOnly: page scripts cannot read it.
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === '__Host-session');
    assert.ok(session, `expected __Host-session among ${cookies.map((c) => c.name).join(', ')}`);
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Lax');
    assert.equal(await page.evaluate(() => document.cookie.includes('session')), false);

    await page.reload();
    await page.waitForURL('**/app/dashboard');
    await page.goto('/login');
    await page.waitForURL('**/app/dashboard'); // signed-in users skip public pages
    await page.goto('/app');
    await page.waitForURL('**/app/dashboard');

    await page.getByRole('link', { name: 'Open profile' }).click();
    await page.waitForURL('**/app/profile');
    await page.getByText(email).waitFor();
    await page.getByText('Free User').waitFor();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/app/profile');
    await page.waitForURL('**/login');
    await context.close();
  });

  it('shows the spec’s messages for taken e-mails, short passwords and wrong passwords', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    const email = uniqueEmail('errors');
    await signUp(page, email);
    await page.waitForURL('**/app/dashboard');
    await context.clearCookies();

    await signUp(page, email);
    await page.getByRole('alert').getByText('This email is already registered').waitFor();

    await signUp(page, uniqueEmail('short'), '12345');
    await page.getByText('Password should be at least 6 characters').first().waitFor();
    assert.equal(path(page), '/login');

    await logIn(page, email, 'not-the-password');
    await page.getByRole('alert').getByText('Invalid email or password').waitFor();
    await logIn(page, uniqueEmail('nobody'), 'van-route-42');
    await page.getByRole('alert').getByText('Invalid email or password').waitFor();

    await logIn(page, email, 'van-route-42');
    await page.waitForURL('**/app/dashboard');
    await context.close();
  });
});

describe('guest', () => {
  it('continues as a guest into the app', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue as guest' }).click();
    await page.waitForURL('**/app/dashboard');
    const reply = await page.evaluate(async () => (await fetch('/api/v1/auth/session')).json());
    assert.equal(reply.user.isAnonymous, true);
    await context.close();
  });
});

describe('operator', () => {
  it('users set-plan takes effect at once and users list shows the account', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    const email = uniqueEmail('pro');
    await signUp(page, email);
    await page.waitForURL('**/app/dashboard');

    run.server.admin('users', 'set-plan', email, 'pro');
    // Columns: id, e-mail, phone ("-" for an e-mail account), plan.
    assert.match(run.server.admin('users', 'list'), new RegExp(`${email.replace(/[.]/g, '\\.')}\\s+-\\s+pro`));
    // The CLI is another process: the server notices its commit (and drops what it cached
    // about sessions) within a quarter of a second, so wait on the server's answer, not a clock.
    await page.waitForFunction(async () => (await (await fetch('/api/v1/auth/session')).json()).user?.role === 'pro', undefined, { polling: 250 });
    await page.goto('/app/profile');
    await page.getByText('Pro Member').waitFor();
    await context.close();
  });
});
