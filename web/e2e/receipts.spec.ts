// [13] Receipt photos in Chromium against the real binary: with no signal a driver adds an
// expense with a photo of the receipt (a real picture, made smaller on the phone), reloads and
// still sees it, comes back online, and the server stores the photo exactly once; a second
// device shows the expense with its photo. And a photo waiting to upload survives a reload.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { goOffline, goOnline, logIn, newPage, serverHolds, signUp, uniqueEmail, serverAndBrowser } from './harness';
import { receiptPng } from './png';

const run = serverAndBrowser();

/** The receipt photos the server keeps for a user, as files in its local store. */
function storedReceipts(userId: string): string[] {
  try {
    return readdirSync(join(run.server.dataDir, 'files', 'users', userId)).filter((name) => name.startsWith('receipt_'));
  } catch {
    return [];
  }
}

async function userIdOf(page: Page): Promise<string> {
  return page.evaluate(async () => ((await (await fetch('/api/v1/auth/session')).json()) as { user: { id: string } }).user.id);
}

/** Waits until a picture has really been decoded, and returns its natural width. */
async function shownWidth(image: Locator): Promise<number> {
  await image.waitFor({ timeout: 20_000 });
  await image.evaluate((img: HTMLImageElement) => img.decode());
  return image.evaluate((img: HTMLImageElement) => img.naturalWidth);
}

/** Every PUT of a receipt the page sent, with the server's status. */
function receiptUploads(page: Page): number[] {
  const statuses: number[] = [];
  page.on('response', (response) => {
    if (response.request().method() === 'PUT' && response.url().includes('/api/v1/receipts/')) statuses.push(response.status());
  });
  return statuses;
}

const photo = { name: 'receipt.png', mimeType: 'image/png', buffer: receiptPng(1200, 3000) };

describe('receipt photos', () => {
  it('are kept offline with their expense, uploaded exactly once when online, and shown on a second device', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    const email = uniqueEmail('receipts');
    await signUp(page, email, 'van-route-42', 'Sam Driver');
    await page.waitForURL('**/app/dashboard');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const userId = await userIdOf(page);
    const uploads = receiptUploads(page);

    await goOffline(context);
    // Loaded again with no signal, from the service worker (the first load was not under it).
    await page.goto('/app/dashboard');
    await page.getByRole('link', { name: 'Add expense' }).click();
    await page.waitForURL('**/app/spending?view=expenses&add=1');
    const form = page.getByRole('form', { name: 'Add an expense' });
    await form.getByLabel('Amount (£)').fill('45.50');
    await form.getByLabel('Category').selectOption('fuel');
    await form.getByLabel('Note').fill('Diesel at the depot');
    await form.getByTestId('receipt-file').setInputFiles(photo);
    // Shown at once, made smaller on the phone: the long side is at most 2,048 px.
    const thumb = form.getByRole('img', { name: 'Receipt photo 1 of 1' });
    assert.equal(await thumb.evaluate(async (img: HTMLImageElement) => (await img.decode(), img.naturalHeight)), 2048);
    await form.getByRole('button', { name: 'Add expense' }).click();

    const expenses = page.getByRole('region', { name: 'Expenses' });
    const item = expenses.getByRole('listitem').filter({ hasText: 'Diesel at the depot' });
    await item.getByText('Waiting to upload').waitFor();
    await expenses.getByText('1 receipt photo is waiting to upload.').waitFor();

    // A reload with no signal: the expense and its photo are still there, still waiting.
    await page.reload();
    await item.getByText('Fuel £45.50').waitFor({ timeout: 20_000 });
    assert.equal(await shownWidth(item.getByRole('img', { name: 'Receipt photo 1 of 1' })), 819);
    await item.getByText('Waiting to upload').waitFor();
    assert.deepEqual(uploads, [], 'nothing was sent offline');

    await goOnline(context);
    await item.getByText('Waiting to upload').waitFor({ state: 'detached', timeout: 30_000 });
    const records = await serverHolds(page, 'the expense', (held) => held.some((r) => r.kind === 'expense'));
    const expense = records.find((r) => r.kind === 'expense');
    const receipts = expense?.data?.receipts as string[];
    assert.equal(receipts.length, 1);
    const id = receipts[0] ?? '';
    assert.deepEqual(expense?.data, { ...expense?.data, amount: 4_550, category: 'fuel', note: 'Diesel at the depot', repeat: 'once', receipts: [id] });
    // Exactly one upload, stored once: one answer 201 (stored now), one object in the store.
    assert.deepEqual(uploads, [201]);
    // Each upload writes its own object, receipt_{id}_{version} (the row names the one that won).
    const stored = storedReceipts(userId);
    assert.equal(stored.length, 1, `one object: ${stored.join(', ')}`);
    assert.match(stored[0] ?? '', new RegExp(`^receipt_${id}_[0-9a-f]{32}$`));
    const served = await page.evaluate(async (path) => {
      const response = await fetch(path);
      return { status: response.status, type: response.headers.get('Content-Type') };
    }, `/api/v1/receipts/${id}`);
    assert.deepEqual(served, { status: 200, type: 'image/jpeg' });

    // The driver's other device shows the expense with the photo, fetched from the server.
    const laptop = await newPage(run.browser, run.server);
    await logIn(laptop.page, email, 'van-route-42');
    await laptop.page.waitForURL('**/app/dashboard');
    await laptop.page.goto('/app/spending');
    const there = laptop.page.getByRole('region', { name: 'Expenses' }).getByRole('listitem').filter({ hasText: 'Diesel at the depot' });
    await there.getByText('Fuel £45.50').waitFor({ timeout: 20_000 });
    assert.equal(await shownWidth(there.getByRole('img', { name: 'Receipt photo 1 of 1' })), 819);
    assert.equal(await there.getByText('Waiting to upload').count(), 0);
    assert.deepEqual(storedReceipts(userId), stored, 'a second device never uploads it again');
    await laptop.context.close();
    await context.close();
  });

  it('keeps a photo waiting through a reload and uploads it once the server is reachable', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('receipts-reload'), 'van-route-42', 'Sam Driver');
    await page.waitForURL('**/app/dashboard');
    const userId = await userIdOf(page);
    const uploads = receiptUploads(page);
    // The receipts route cannot be reached (a flaky signal that lets sync through): the photo waits.
    await context.route('**/api/v1/receipts/**', (route) => route.abort('connectionreset'));

    await page.goto('/app/spending?view=expenses&add=1');
    const form = page.getByRole('form', { name: 'Add an expense' });
    await form.getByLabel('Amount (£)').fill('3.20');
    await form.getByLabel('Category').selectOption('parkingTolls');
    await form.getByLabel('Note').fill('Car park by the depot');
    await form.getByTestId('receipt-file').setInputFiles(photo);
    await form.getByRole('img', { name: 'Receipt photo 1 of 1' }).waitFor();
    await form.getByRole('button', { name: 'Add expense' }).click();
    const item = page.getByRole('region', { name: 'Expenses' }).getByRole('listitem').filter({ hasText: 'Car park by the depot' });
    await item.getByText('Waiting to upload').waitFor();
    await serverHolds(page, 'the expense', (records) => records.some((r) => r.kind === 'expense'));

    await page.reload();
    await item.getByText('Waiting to upload').waitFor({ timeout: 20_000 });
    assert.deepEqual(storedReceipts(userId), []);

    // Reachable again: the next sync (the one a page load starts) sends it, once.
    await context.unroute('**/api/v1/receipts/**');
    await page.reload();
    await item.getByText('Parking, tolls and congestion charges £3.20').waitFor({ timeout: 20_000 });
    await item.getByText('Waiting to upload').waitFor({ state: 'detached', timeout: 30_000 });
    assert.deepEqual(uploads, [201]);
    assert.equal(storedReceipts(userId).length, 1);
    await context.close();
  });
});
