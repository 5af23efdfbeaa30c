// [3/5] Profile, payment tiers, plans, theme and picture, end to end in Chromium against the
// real binary: a profile edited offline survives a reload and reaches the driver's other
// device; the tiers saved on the courier's rate card in settings price the next entry; the
// operator's plan change shows without a reload; the theme follows the driver; an uploaded
// picture shows in the header.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { goOffline, goOnlineUntilSynced, logIn, newPage, openNav, serverHolds, signUp, uniqueEmail, serverAndBrowser, dayForm } from './harness';

const PASSWORD = 'van-route-42';
const run = serverAndBrowser();

/** A new driver on one device, plus a second signed-in device of the same driver. */
async function twoDevices(tag: string, name = 'Sam Driver') {
  const email = uniqueEmail(tag);
  const phone = await newPage(run.browser, run.server);
  await signUp(phone.page, email, PASSWORD, name);
  await phone.page.waitForURL('**/app/dashboard');
  const laptop = await newPage(run.browser, run.server);
  await logIn(laptop.page, email, PASSWORD);
  await laptop.page.waitForURL('**/app/dashboard');
  return { email, phone, laptop };
}

function profileCard(page: Page) {
  return page.getByRole('region', { name: 'Your profile' });
}

/** A real PNG (the server decodes and re-encodes pictures), `size` pixels square, one colour. */
function png(size: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('profile, settings, plans and theme', () => {
  it('keeps a profile edited offline through a reload, then shows it on the other device', async () => {
    const { phone, laptop } = await twoDevices('profile');
    await phone.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await openNav(laptop.page, 'Profile');
    await profileCard(laptop.page).getByRole('heading', { name: 'Sam Driver' }).waitFor();

    await goOffline(phone.context);
    await openNav(phone.page, 'Profile');
    await phone.page.getByRole('button', { name: 'Edit Profile' }).click();
    const email = phone.page.getByLabel('Email');
    assert.equal(await email.getAttribute('readonly'), '');
    await phone.page.getByText('Email cannot be changed').waitFor();
    await phone.page.getByLabel('Display name').fill('Samira Khan');
    await phone.page.getByLabel('Bio').fill('Nights, van 7');
    await phone.page.getByRole('button', { name: 'Save' }).click();
    await phone.page.getByText('Profile updated successfully!').waitFor();
    await profileCard(phone.page).getByRole('heading', { name: 'Samira Khan' }).waitFor();

    await phone.page.reload();
    await profileCard(phone.page).getByRole('heading', { name: 'Samira Khan' }).waitFor(); // from the device alone
    await profileCard(phone.page).getByText('Nights, van 7').waitFor();
    await profileCard(phone.page).getByText('waiting to sync').waitFor();
    assert.equal(await profileCard(laptop.page).getByRole('heading', { name: 'Samira Khan' }).count(), 0, 'nothing reached the server yet');

    await goOnlineUntilSynced(phone.context, phone.page);
    // The laptop was poked and pulled: no reload.
    await profileCard(laptop.page).getByRole('heading', { name: 'Samira Khan' }).waitFor({ timeout: 20_000 });
    await profileCard(laptop.page).getByText('Nights, van 7').waitFor();
    await openNav(laptop.page, 'Home');
    await laptop.page.getByRole('region', { name: 'Greeting' }).getByText(/, Samira!/).waitFor();
    await phone.context.close();
    await laptop.context.close();
  });

  it('prices a new entry with a tier added to the courier\'s rates in the payment settings', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('tiers'));
    await page.waitForURL('**/app/dashboard');
    await openNav(page, 'Settings');
    await page.getByRole('heading', { name: 'Payment Settings' }).waitFor();
    // The tiers live on the default courier's first rate card (issue 12), which the server made.
    await page.getByRole('button', { name: 'Edit rates from the start' }).click({ timeout: 20_000 });
    await page.getByText('A 130-stop day pays £247.40').waitFor();

    await page.getByRole('button', { name: 'Add Tier' }).click();
    assert.equal(await page.getByRole('spinbutton', { name: 'Tier 2: up to how many stops' }).inputValue(), '130');
    assert.equal(await page.getByRole('spinbutton', { name: 'Tier 2: rate (£ per stop)' }).inputValue(), '1.73');
    await page.getByRole('spinbutton', { name: 'Tier 2: rate (£ per stop)' }).fill('2.50');
    await page.getByText('A 150-stop day pays £297.40').waitFor(); // 110 × 1.98 + 20 × 2.50 + 20 × 1.48
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Payment settings saved successfully!').waitFor();

    await openNav(page, 'Home');
    const form = dayForm(page);
    await form.getByLabel('Date').fill('2025-03-20');
    await form.getByLabel('Stops').fill('140');
    await form.getByText('£282.60').waitFor(); // the live total: 110 × 1.98 + 20 × 2.50 + 10 × 1.48
    await form.getByRole('button', { name: 'Save Entry' }).click();
    await form.getByText('Entry saved successfully!').waitFor();
    const entry = page.getByRole('region', { name: 'Recent Entries' }).getByRole('listitem').first();
    await entry.getByText('£282.60').waitFor();
    await page.getByText('All changes saved').waitFor({ timeout: 20_000 });

    // The server has both: the tiers on the first rate card and the total on the entry. The
    // words above can be the ones from before the save (the status was synced then), so the
    // server is asked until it holds the entry.
    const changes = await serverHolds(page, 'the entry', (records) => records.some((c) => c.kind === 'entry'));
    assert.deepEqual(changes.find((c) => c.kind === 'rateCard')?.data?.perStop, [
      { stopCount: 110, rate: 198 },
      { stopCount: 130, rate: 250 },
      { rate: 148 },
    ]);
    assert.equal(changes.find((c) => c.kind === 'entry')?.data?.total, 28_260);
    await context.close();
  });

  it('shows Pro Member and Current Plan once the operator sets the plan, and drops the banner', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    const email = uniqueEmail('plan');
    await signUp(page, email);
    await page.waitForURL('**/app/dashboard');
    const banner = page.getByRole('complementary', { name: 'Pro plan' });
    await banner.waitFor();
    await openNav(page, 'Profile');
    await profileCard(page).getByRole('link', { name: 'Free User' }).click();
    await page.waitForURL('**/app/upgrade');
    await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Ask your operator to switch you to Pro' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'OK' }).click();
    await openNav(page, 'Profile');

    run.server.admin('users', 'set-plan', email, 'pro');

    // Poked and pulled: no reload.
    await profileCard(page).getByRole('link', { name: 'Pro Member' }).waitFor({ timeout: 20_000 });
    await banner.waitFor({ state: 'detached' });
    await profileCard(page).getByRole('link', { name: 'Pro Member' }).click();
    const current = page.getByRole('button', { name: 'Current Plan' });
    await current.waitFor();
    assert.equal(await current.isDisabled(), true);
    assert.equal(await page.getByRole('button', { name: 'Upgrade to Pro' }).count(), 0);
    await page.reload();
    await page.getByRole('button', { name: 'Current Plan' }).waitFor();
    assert.equal(await banner.count(), 0);
    await context.close();
  });

  it('keeps the light theme across a reload and takes it to the other device', async () => {
    const { email, phone, laptop } = await twoDevices('theme');
    const theme = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);
    assert.equal(await theme(phone.page), 'dark');
    await openNav(phone.page, 'Profile');
    const group = phone.page.getByRole('group', { name: 'Theme' });
    await group.getByRole('button', { name: 'Light' }).click();
    assert.equal(await theme(phone.page), 'light');
    await group.getByRole('button', { name: 'Light', pressed: true }).waitFor(); // stored on the device
    const background = await phone.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(background, 'rgb(245, 247, 250)');

    await phone.page.reload({ waitUntil: 'domcontentloaded' });
    assert.equal(await theme(phone.page), 'light', 'applied before the app renders');
    await group.getByRole('button', { name: 'Light', pressed: true }).waitFor();

    // The laptop, open all along, is poked and follows.
    await laptop.page.waitForFunction(() => document.documentElement.dataset.theme === 'light', null, { timeout: 20_000 });
    // And a device signing in afresh gets it too.
    const tablet = await newPage(run.browser, run.server);
    await logIn(tablet.page, email, PASSWORD);
    await tablet.page.waitForURL('**/app/dashboard');
    await tablet.page.waitForFunction(() => document.documentElement.dataset.theme === 'light', null, { timeout: 20_000 });

    await group.getByRole('button', { name: 'Dark' }).click();
    await laptop.page.waitForFunction(() => document.documentElement.dataset.theme === 'dark', null, { timeout: 20_000 });
    for (const device of [phone, laptop, tablet]) await device.context.close();
  });

  it('uploads a picture that the header avatar shows at once, and the other device after sync', async () => {
    const { phone, laptop } = await twoDevices('photo');
    await openNav(phone.page, 'Profile');
    const input = phone.page.getByLabel('Profile picture file');

    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await phone.page.getByRole('alert').getByText('Please select an image file').waitFor();

    await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(64, [200, 40, 40]) });
    await phone.page.getByText('Profile picture updated').waitFor({ timeout: 20_000 });
    const headerImage = phone.page.getByRole('banner').getByRole('link', { name: 'Open profile' }).locator('img');
    await headerImage.waitFor();
    assert.match((await headerImage.getAttribute('src')) ?? '', /^\/api\/v1\/files\/users\/[^/]+\/profile_\d+$/);
    // It really loads (same origin, with the session cookie).
    await phone.page.waitForFunction(
      () => ((document.querySelector('header a[aria-label="Open profile"] img') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0,
    );
    const src = await headerImage.getAttribute('src');
    assert.equal(await profileCard(phone.page).locator('img').getAttribute('src'), src);

    const laptopImage = laptop.page.getByRole('banner').getByRole('link', { name: 'Open profile' }).locator('img');
    await laptopImage.waitFor({ timeout: 20_000 });
    assert.equal(await laptopImage.getAttribute('src'), src);
    await phone.context.close();
    await laptop.context.close();
  });
});
