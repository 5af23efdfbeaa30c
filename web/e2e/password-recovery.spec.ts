// [issue 26] Forgotten password over SMTP, against a real SMTP server on a loopback port: an
// unknown address gets the same answer and no e-mail; the e-mailed link sets a new password once,
// signs the other device out, refuses a weak password on its field, and stops working when used
// or expired. And the common-password refusal at sign-up.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { freePort, launchBrowser, logIn, newPage, signUp, startServer, uniqueEmail, type RunningServer } from './harness';
import { bodyOf, startSmtpSink, type ReceivedMail, type SmtpSink } from './smtp-sink';

const PASSWORD = 'van-route-42';
const NEW_PASSWORD = 'ringroad-dawn-7';

const run = {} as { server: RunningServer; browser: Browser; sink: SmtpSink };
before(async () => {
  run.sink = await startSmtpSink();
  const port = await freePort();
  run.server = await startServer({
    LISTEN: `127.0.0.1:${port}`,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: run.sink.url,
    CONTACT_EMAIL_TO: 'ops@example.test',
    CONTACT_EMAIL_FROM: 'Delivery Tracker <noreply@example.test>',
  });
  run.browser = await launchBrowser();
});
after(async () => {
  await run.browser?.close();
  await run.server?.stop();
  await run.sink?.close();
});

/** The reset link in `mail`, checking it names the server's own address. */
function linkIn(mail: ReceivedMail): string {
  const link = /http:\/\/127\.0\.0\.1:\d+\/reset-password#[A-Za-z0-9_-]+/.exec(bodyOf(mail))?.[0];
  assert.ok(link, bodyOf(mail));
  assert.ok(link.startsWith(run.server.url), `${link} is on ${run.server.url}`);
  return link;
}

async function askForALink(page: Page, email: string): Promise<string> {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a link' }).click();
  const answer = page.getByRole('status').filter({ hasText: 'If an account uses' });
  await answer.waitFor();
  return answer.innerText();
}

describe('forgotten password', () => {
  it('e-mails a link only to an account, which works once and signs other devices out', async () => {
    const email = uniqueEmail('forgot');
    const other = await newPage(run.browser, run.server);
    await signUp(other.page, email, PASSWORD);
    await other.page.waitForURL('**/app/dashboard');

    const { context, page } = await newPage(run.browser, run.server);
    // The unknown address first: requests are handled in order, so once the known one's e-mail
    // is in, the unknown one was handled, and sent nothing.
    const unknownAnswer = await askForALink(page, 'nobody-here@example.com');
    const knownAnswer = await askForALink(page, email);
    assert.equal(knownAnswer.replace(email, 'X'), unknownAnswer.replace('nobody-here@example.com', 'X'), 'the same answer');
    const [mail, ...more] = await run.sink.waitFor(1);
    assert.equal(more.length, 0);
    assert.deepEqual(mail!.to, [email]);
    const link = linkIn(mail!);

    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByText(email).waitFor();
    // The server's rules, on the field.
    await page.getByLabel('New password').fill('van123');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('made from the app\'s name').waitFor();
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL('**/app/dashboard');

    // Every other session ended: the other device is signed out at its next look.
    await other.page.reload();
    await other.page.waitForURL('**/login');
    await other.context.close();

    // Once only.
    await page.goto(link);
    await page.getByRole('alert').getByText('This link has expired or has already been used.').waitFor();
    await context.close();

    // The new password signs in; the old one does not.
    const fresh = await newPage(run.browser, run.server);
    await logIn(fresh.page, email, PASSWORD);
    await fresh.page.getByRole('alert').getByText('Invalid email or password').waitFor();
    await logIn(fresh.page, email, NEW_PASSWORD);
    await fresh.page.waitForURL('**/app/dashboard');
    await fresh.context.close();
  });

  it('stops working once expired', async () => {
    const email = uniqueEmail('expiry');
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, email, PASSWORD);
    await page.waitForURL('**/app/dashboard');
    await context.clearCookies();
    const before = run.sink.mails.length;
    await askForALink(page, email);
    const mails = await run.sink.waitFor(before + 1);
    const link = linkIn(mails[before]!);
    // An hour passes: the link's stored expiry is moved into the past (the Rust tests move the
    // server's clock across the hour itself; a real binary's clock cannot be moved).
    const database = join(run.server.dataDir, 'delivery-tracker.db');
    execFileSync('sqlite3', ['-cmd', '.timeout 5000', database, 'UPDATE email_links SET expires_at = created_at WHERE expires_at > created_at;']);
    await page.goto(link);
    await page.getByRole('alert').getByText('This link has expired or has already been used.').waitFor();
    assert.equal(await page.getByLabel('New password').count(), 0);
    await page.getByRole('link', { name: 'Email me a new link' }).click();
    await page.waitForURL('**/forgot-password');
    await context.close();
  });
});

describe('common passwords', () => {
  it('are refused at sign-up with the reason under the password field', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    const email = uniqueEmail('common');
    await signUp(page, email, 'password1');
    const field = page.getByLabel('Password');
    await page.getByText('This is one of the most common passwords').waitFor();
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.equal(new URL(page.url()).pathname, '/login', 'no account, still on the form');
    // A real one goes through.
    await field.fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL('**/app/dashboard');
    await context.close();
  });
});
