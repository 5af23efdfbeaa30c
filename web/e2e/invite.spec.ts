// [issue 27] An invitation on a server with sign-ups closed: the operator's `users invite` prints
// a link (no SMTP here), which opens a sign-up page for that address only, works once, and lands
// on the dashboard.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { freePort, launchBrowser, newPage, startServer, uniqueEmail, type RunningServer } from './harness';

const run = {} as { server: RunningServer; browser: Browser };
before(async () => {
  // The printed link names LISTEN's address (no PUBLIC_URL), so the port is fixed up front.
  const port = await freePort();
  run.server = await startServer({ LISTEN: `127.0.0.1:${port}`, SIGNUPS_OPEN: 'false', GUESTS_ENABLED: 'false' });
  run.browser = await launchBrowser();
});
after(async () => {
  await run.browser?.close();
  await run.server?.stop();
});

describe('invitations', () => {
  it('sign up the invited address once, while sign-ups are closed', async () => {
    const email = uniqueEmail('invited');
    const printed = run.server.admin('users', 'invite', email);
    const link = /http:\/\/\S+\/invite#[A-Za-z0-9_-]+/.exec(printed)?.[0];
    if (!link?.startsWith(run.server.url)) throw new Error(`no invitation link on ${run.server.url} in: ${printed}`);

    const { context, page } = await newPage(run.browser, run.server);
    await page.goto('/login');
    await page.getByText('New accounts are closed on this server.').waitFor();

    await page.goto(link);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    // The address is the invitation's: shown, not a field to change.
    await page.getByText(email).waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Email' }).count(), 0);
    await page.getByLabel('Display name').fill('Nat');
    await page.getByLabel('Password').fill('ringroad-dawn-7');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL('**/app/dashboard');
    await page.getByText('Nat', { exact: false }).first().waitFor();

    // Once only.
    const other = await newPage(run.browser, run.server);
    await other.page.goto(link);
    await other.page.getByRole('alert').getByText('This invitation has expired or has already been used.').waitFor();
    await other.context.close();
    await context.close();
  });
});
