// [28] Evidence kept at the time, in Chromium against the real binary: offline, on a statement
// check with a difference, the driver adds a proof-of-delivery photo to the statement line and a
// waiting time to the day, then makes the query there and then: the query page lists both, as
// recorded in its chain. Back online the photo uploads exactly once (one answer 201, one object
// in the server's store), each item shows when the server first stored it, and a second device
// signed in as the same driver sees the query with the evidence and the photo, without
// uploading it again. Zero axe violations on the screens with the evidence.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { addEntry, axeViolations, checkStatement, goOffline, goOnline, logIn, newPage, openStatementLines, serverAndBrowser, serverHolds, short, signUp, thisWeek, uniqueEmail } from './harness';
import { receiptPng } from './png';

const run = serverAndBrowser();


/** The photos the server keeps for a user, as files in its local store. */
function storedPhotos(userId: string): string[] {
  try {
    return readdirSync(join(run.server.dataDir, 'files', 'users', userId)).filter((name) => name.startsWith('receipt_'));
  } catch {
    return [];
  }
}

async function userIdOf(page: Page): Promise<string> {
  return page.evaluate(async () => ((await (await fetch('/api/v1/auth/session')).json()) as { user: { id: string } }).user.id);
}

/** Every PUT of a photo the page sent, with the server's status. */
function photoUploads(page: Page): number[] {
  const statuses: number[] = [];
  page.on('response', (response) => {
    if (response.request().method() === 'PUT' && response.url().includes('/api/v1/receipts/')) statuses.push(response.status());
  });
  return statuses;
}

/** Waits until a picture has really been decoded, and returns its natural width. */
async function shownWidth(image: Locator): Promise<number> {
  await image.waitFor({ timeout: 20_000 });
  await image.evaluate((img: HTMLImageElement) => img.decode());
  return image.evaluate((img: HTMLImageElement) => img.naturalWidth);
}

const photo = { name: 'delivered.png', mimeType: 'image/png', buffer: receiptPng(300, 400) };

describe('evidence kept at the time', () => {
  it('is added offline to a line and a day, recorded by the query, uploaded once, and seen on a second device', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await page.setViewportSize({ width: 390, height: 844 });
    const email = uniqueEmail('evidence');
    await signUp(page, email, 'van-route-42', 'Sam Driver');
    await page.waitForURL('**/app/dashboard');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const userId = await userIdOf(page);
    const uploads = photoUploads(page);
    const [start, monday, tuesday, end] = [thisWeek(-14), thisWeek(-13), thisWeek(-12), thisWeek(-8)];
    await addEntry(page, monday, 100, 'R12'); // £198.00
    await addEntry(page, tuesday, 120, 'R12'); // £232.60
    await checkStatement(page, start, end, '415.80');

    // Offline: the statement's lines imported, one difference named.
    await goOffline(context);
    await openStatementLines(page, start, end);
    const csv = ['Date,Description,Stops,Amount (£)', `${short(monday)},Multi-drop stops,100,198.00`, `${short(tuesday)},Multi-drop stops,110,217.80`].join('\r\n');
    await page.getByLabel('Statement file (CSV or PDF)').setInputFiles({ name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('group', { name: "Match the file's columns" }).getByRole('button', { name: 'Save the layout and import 2 lines' }).click();
    await page.getByText('Added 2 lines.').waitFor();
    const difference = page.getByRole('list', { name: 'Differences' }).getByRole('listitem').filter({ hasText: '10 stops logged but not paid' });
    await difference.getByRole('button', { name: /Show the records behind it/ }).click();

    // A proof-of-delivery photo on the statement line, shown at once and waiting to upload.
    const onLine = difference.getByRole('region', { name: new RegExp(`^Evidence on the statement line .* of ${short(tuesday).replaceAll('/', '\\/')}$`) });
    await onLine.getByRole('button', { name: 'Add evidence' }).click();
    const lineForm = onLine.getByRole('form', { name: /^Add evidence on the statement line/ });
    await lineForm.getByLabel('What it is').selectOption('photo');
    await lineForm.getByLabel('What it shows').selectOption('proofOfDelivery');
    await lineForm.getByTestId('evidence-file').setInputFiles(photo);
    await lineForm.getByRole('img', { name: 'The photo picked' }).waitFor();
    await lineForm.getByRole('button', { name: 'Save evidence' }).click();
    const photoItem = onLine.getByRole('listitem').filter({ hasText: 'Photo (proof of delivery)' });
    await photoItem.getByText('Waiting to upload').waitFor();
    await photoItem.getByText(/Recorded .* on the device · not on the server yet/).waitFor();

    // Waiting time at the depot on the day.
    const onDay = difference.getByRole('region', { name: `Evidence on your day ${short(tuesday)}` });
    await onDay.getByRole('button', { name: 'Add evidence' }).click();
    const dayForm = onDay.getByRole('form', { name: `Add evidence on your day ${short(tuesday)}` });
    await dayForm.getByLabel('What it is').selectOption('waiting');
    await dayForm.getByRole('button', { name: 'Save evidence' }).click();
    await dayForm.getByText('Minutes must be a whole number from 1 to 1440').waitFor();
    await dayForm.getByLabel('Minutes waited').fill('55');
    await dayForm.getByLabel('Where').fill('Depot');
    await dayForm.getByRole('button', { name: 'Save evidence' }).click();
    await onDay.getByRole('listitem').filter({ hasText: 'Waiting time: 55 minutes at Depot' }).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'the statement check with its evidence');

    // "Query this", still offline: the query records both items after its difference.
    await page.getByRole('button', { name: 'Query this' }).click();
    await page.waitForURL('**/app/statement-query?id=*');
    const queryId = new URL(page.url()).searchParams.get('id')!;
    const differences = page.getByRole('list', { name: 'Differences queried' }).getByRole('listitem');
    const recorded = page.getByRole('list', { name: 'Evidence recorded with the query' });
    await recorded.getByText(`${short(tuesday)}: Waiting time: 55 minutes at Depot`).waitFor();
    await recorded.getByText(`${short(tuesday)}: Photo (proof of delivery)`).waitFor();
    await differences.filter({ hasText: '10 stops logged but not paid' }).waitFor();
    assert.equal(await differences.count(), 1, 'the evidence is not a difference');
    await page.getByText('Chain checked: every item is as recorded.').waitFor();
    assert.equal(await page.getByText(/changed since the query was made|removed since the query was made/).count(), 0);
    assert.deepEqual(await axeViolations(page), [], 'the query page with its evidence');
    assert.deepEqual(uploads, [], 'nothing was sent offline');

    // Back online: the items, the query and the photo reach the server, the photo once. The
    // driver goes back to the check through the app's own link, as they would: a page load
    // (page.goto) could cut the upload off after the server stored the photo but before the device
    // wrote down its answer, and the new page's resend would rightly be answered 200 (already
    // stored), a second request this test counts. Waiting for the answer in the network is not
    // enough: the device still has to read it and record it.
    const uploadAnswered = page.waitForResponse((response) => response.request().method() === 'PUT' && response.url().includes('/api/v1/receipts/'), { timeout: 60_000 });
    await goOnline(context);
    const held = await serverHolds(page, 'the query and its evidence', (all) => all.some((r) => r.kind === 'statementQuery') && all.filter((r) => r.kind === 'evidence').length === 2);
    const evidence = held.filter((r) => r.kind === 'evidence');
    const photoId = evidence.map((r) => r.data?.photoId).find((id) => typeof id === 'string') as string;
    assert.ok(photoId, 'the photo item names its photo');
    for (const item of evidence) {
      // Two times each: the device's, and the server's own first-stored time (never the device's).
      assert.match(String(item.data?.recordedAt), /^\d{4}-\d{2}-\d{2}T/);
      assert.match(String(item.data?.createdAt), /^\d{4}-\d{2}-\d{2}T/);
    }
    const query = held.find((r) => r.kind === 'statementQuery')!;
    assert.equal(query.data?.itemsVersion, 2);
    assert.deepEqual((query.data?.items as { kind: string }[]).map((i) => i.kind === 'evidence'), [false, true, true]);
    await uploadAnswered;
    await page.getByRole('link', { name: 'Statement check', exact: true }).click();
    await page.waitForURL(`**/app/statement-check?id=${String(query.data?.statementCheckId)}`);
    const again = page.getByRole('list', { name: 'Differences' }).getByRole('listitem').filter({ hasText: '10 stops logged but not paid' });
    await again.getByRole('button', { name: /Show the records behind it/ }).click();
    const uploaded = again.getByRole('listitem').filter({ hasText: 'Photo (proof of delivery)' });
    await uploaded.getByText('Waiting to upload').waitFor({ state: 'detached', timeout: 30_000 });
    await uploaded.getByText(/stored on the server \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/).waitFor({ timeout: 20_000 });
    assert.deepEqual(uploads, [201]);
    const stored = storedPhotos(userId);
    assert.equal(stored.length, 1, `one object: ${stored.join(', ')}`);
    assert.match(stored[0] ?? '', new RegExp(`^receipt_${photoId}_[0-9a-f]{32}$`));

    // The driver's second device: the query with its evidence and the photo, fetched once.
    const other = await newPage(run.browser, run.server);
    await logIn(other.page, email, 'van-route-42');
    await other.page.waitForURL('**/app/dashboard');
    await other.page.goto(`/app/statement-query?id=${queryId}`);
    const there = other.page.getByRole('list', { name: 'Evidence recorded with the query' });
    await there.getByText(`${short(tuesday)}: Waiting time: 55 minutes at Depot`).waitFor({ timeout: 20_000 });
    assert.equal(await shownWidth(there.getByRole('img', { name: 'Photo (proof of delivery)' })), 300);
    await other.page.getByText('Chain checked: every item is as recorded.').waitFor();
    assert.equal(await other.page.getByText(/changed since the query was made/).count(), 0);
    assert.deepEqual(storedPhotos(userId), stored, 'a second device never uploads it again');
    await other.context.close();
    await context.close();
  });
});
