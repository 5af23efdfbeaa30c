// [5/5] Phone sign-in, end to end: the invisible captcha solved in Chromium, the code read from
// the `log` sender's outbox file, the dashboard; and a guest keeping their account by linking
// a number. The real binary with SMS_SENDER=log.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { newPage, startServer, type RunningServer, serverAndBrowser } from './harness';

const run = serverAndBrowser({ SMS_SENDER: 'log' });

/** The newest code texted to `to`, waiting for it to reach the outbox file. */
async function codeFor(to: string, on: RunningServer = run.server): Promise<string> {
  const outbox = join(on.dataDir, 'sms-outbox.jsonl');
  for (let tries = 0; tries < 100; tries += 1) {
    if (existsSync(outbox)) {
      const messages = readFileSync(outbox, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { to: string; code: string; sentAt: string });
      const latest = messages.filter((m) => m.to === to).at(-1);
      if (latest) return latest.code;
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`no code texted to ${to}`);
}

function outboxCount(): number {
  const outbox = join(run.server.dataDir, 'sms-outbox.jsonl');
  return existsSync(outbox) ? readFileSync(outbox, 'utf8').split('\n').filter(Boolean).length : 0;
}

/**
 * The signed-in account's id. Linking rotates the session, and the screen can learn of the link
 * from a pull (the server pokes as it commits) a moment before the link's answer brings the new
 * cookie; until it lands the old cookie reads as signed out, so this waits for a signed-in answer.
 */
async function sessionUserId(page: Page): Promise<string> {
  for (let tries = 0; tries < 40; tries += 1) {
    const id = await page.evaluate(async () => {
      const response = await fetch('/api/v1/auth/session');
      return response.ok ? (((await response.json()) as { user?: { id: string } | null }).user?.id ?? null) : null;
    });
    if (id) return id;
    await page.waitForTimeout(250);
  }
  throw new Error('the session never named an account');
}

/** Step 1 and 2 of the phone form, whichever card shows it. */
async function sendAndVerify(page: Page, typed: string, e164: string, verifyLabel: string, on: RunningServer = run.server): Promise<void> {
  await page.getByLabel('Phone number', { exact: true }).fill(typed);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByLabel('Verification code').waitFor();
  // The 60-second wait before another code is shown, not just enforced.
  const resend = page.getByRole('button', { name: /Resend code in \d+s/ });
  await resend.waitFor();
  assert.equal(await resend.isDisabled(), true);
  await page.getByLabel('Verification code').fill(await codeFor(e164, on));
  await page.getByRole('button', { name: verifyLabel }).click();
}

describe('phone sign-in', () => {
  it('signs up with a texted code and lands on the dashboard; an immediate second code is held back', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await page.goto('/login');
    // Wrong format first: the spec's message, and nothing texted.
    await page.getByRole('button', { name: 'Sign in with Phone' }).click();
    // Too short for a UK number: refused before any SMS.
    await page.getByLabel('Phone number', { exact: true }).fill('+44 7700');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByText('The phone number is entered in international format with a country code').waitFor();
    assert.equal(outboxCount(), 0);

    // National, in the server's default region (GB).
    await sendAndVerify(page, '07700 900123', '+447700900123', 'Verify and sign in');
    await page.waitForURL('**/app/dashboard');
    await page.getByRole('button', { name: 'Sync Data' }).waitFor();

    // Signed out and straight back: the server holds the next code for 60 s and says so.
    await page.getByRole('link', { name: 'Open profile' }).click();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with Phone' }).click();
    await page.getByLabel('Phone number', { exact: true }).fill('+447700900123');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByText(/Please wait \d+ seconds before asking for another code\./).waitFor();
    assert.equal(outboxCount(), 1, 'the refused send texted nothing');
    await context.close();
  });

  it('lets a guest keep their account by linking a number from the profile', async () => {
    // A second server with a 1 s per-number wait, so the other device need not wait a minute.
    const quick = await startServer({ SMS_SENDER: 'log', PHONE_SEND_INTERVAL_SECS: '1' });
    try {
      const { context, page } = await newPage(run.browser, quick);
      await page.goto('/login');
      await page.getByRole('button', { name: 'Continue as guest' }).click();
      await page.waitForURL('**/app/dashboard');
      const guestId = await sessionUserId(page);

      await page.goto('/app/profile');
      await page.getByRole('button', { name: 'Add phone number' }).click();
      await sendAndVerify(page, '+447700900456', '+447700900456', 'Verify and link', quick);
      // No longer a guest: the guest-only card goes away, and the account is the same one.
      await page.getByRole('button', { name: 'Add phone number' }).waitFor({ state: 'detached' });
      assert.equal(await sessionUserId(page), guestId);

      // On another device, the number signs in to that same account.
      await new Promise((done) => setTimeout(done, 1_100));
      const other = await newPage(run.browser, quick);
      await other.page.goto('/login');
      await other.page.getByRole('button', { name: 'Sign in with Phone' }).click();
      await sendAndVerify(other.page, '+447700900456', '+447700900456', 'Verify and sign in', quick);
      await other.page.waitForURL('**/app/dashboard');
      assert.equal(await sessionUserId(other.page), guestId);
      await other.context.close();
      await context.close();
    } finally {
      await quick.stop();
    }
  });
});
