// [5/5] Accounts in Chromium against the real binary: a guest's offline days survive saving the
// account with an e-mail and password (and appear on a second device signed in with them), and
// signing a device out from another one signs it out for real.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addEntry, goOffline, goOnlineUntilSynced, logIn, newPage, signUp, syncBadge, uniqueEmail, serverAndBrowser } from './harness';

const run = serverAndBrowser();

describe('accounts', () => {
  it('a guest logs two days offline, saves the account, and a second device sees both', async () => {
    const phone = await newPage(run.browser, run.server);
    await phone.page.goto('/login');
    await phone.page.getByRole('button', { name: 'Continue as guest' }).click();
    await phone.page.waitForURL('**/app/dashboard');
    await phone.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const guestId = await phone.page.evaluate(async () => ((await (await fetch('/api/v1/auth/session')).json()) as { user: { id: string } }).user.id);

    await goOffline(phone.context);
    await addEntry(phone.page, '2025-03-17', 111, 'Guest Monday');
    await addEntry(phone.page, '2025-03-18', 112, 'Guest Tuesday');
    await syncBadge(phone.page).getByText('2 changes pending sync').waitFor();
    await goOnlineUntilSynced(phone.context, phone.page);

    const email = uniqueEmail('guest-saved');
    await phone.page.getByRole('link', { name: 'Open profile' }).click();
    const save = phone.page.getByRole('form', { name: 'Add email and password' });
    await save.getByLabel('Email').fill(email);
    await save.getByLabel('Password').fill('van-route-42');
    await save.getByRole('button', { name: 'Save account' }).click();
    await phone.page.getByRole('region', { name: 'Your profile' }).getByText(email).waitFor();
    await phone.page.getByRole('region', { name: 'Keep your account' }).waitFor({ state: 'detached' });

    const laptop = await newPage(run.browser, run.server);
    await logIn(laptop.page, email, 'van-route-42');
    await laptop.page.waitForURL('**/app/dashboard');
    await laptop.page.getByText('Guest Monday').waitFor({ timeout: 20_000 });
    await laptop.page.getByText('Guest Tuesday').waitFor();
    const laptopId = await laptop.page.evaluate(async () => ((await (await fetch('/api/v1/auth/session')).json()) as { user: { id: string } }).user.id);
    assert.equal(laptopId, guestId, 'the same account, not a copy');
    await phone.context.close();
    await laptop.context.close();
  });

  it('signing a device out from another signs it out', async () => {
    const email = uniqueEmail('devices');
    const phone = await newPage(run.browser, run.server);
    await signUp(phone.page, email, 'van-route-42', 'Sam Driver');
    await phone.page.waitForURL('**/app/dashboard');

    const laptop = await newPage(run.browser, run.server);
    await logIn(laptop.page, email, 'van-route-42');
    await laptop.page.waitForURL('**/app/dashboard');
    await laptop.page.goto('/app/profile');
    const devices = laptop.page.getByRole('region', { name: 'Your devices' });
    await devices.getByText('This device').waitFor();
    assert.equal(await devices.getByRole('listitem').count(), 2);
    await devices.getByRole('button', { name: /^Sign out / }).click();
    await devices.getByText(/signed out$/).waitFor();
    // The message can show a moment before the list is read again: wait for the row to go.
    await devices.getByRole('listitem').nth(1).waitFor({ state: 'detached' });
    assert.equal(await devices.getByRole('listitem').count(), 1);

    // The phone was not touched: its stream closes, it syncs, hears 401 and goes to the login.
    await phone.page.waitForURL('**/login', { timeout: 20_000 });
    await laptop.page.reload();
    await laptop.page.getByRole('region', { name: 'Your devices' }).getByText('This device').waitFor();
    await phone.context.close();
    await laptop.context.close();
  });
});
