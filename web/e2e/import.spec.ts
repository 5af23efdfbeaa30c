// [14] Import, end to end in Chromium against the real binary: the original app's CSV imported
// with no network is kept on the device, reaches the server when the network returns, and shows
// on the driver's second device; importing the same file again, on either device, adds nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { addEntry, goOffline, goOnline, goOnlineUntilSynced, logIn, newPage, serverHolds, serverRecords, signUp, syncBadge, syncNow, uniqueEmail, serverAndBrowser } from './harness';

const run = serverAndBrowser();

// Three good days and one the preview must list, not drop.
const ORIGINAL_CSV = ['Date,Stops,Extra,Total', '17/03/2025,101,2.50,202.50', '18/03/2025,102,,204.00', '19/03/2025,lots,0,100', '2025-03-20,103,0,206.00', ''].join('\r\n');

async function pickFile(page: Page): Promise<void> {
  await page.getByLabel('File to import').setInputFiles({ name: 'old-app.csv', mimeType: 'text/csv', buffer: Buffer.from(ORIGINAL_CSV) });
}

const entries = async (page: Page) => (await serverRecords(page)).filter((r) => r.kind === 'entry');

describe('import', () => {
  it("imports the original app's CSV offline, syncs it to a second device, and never twice", async () => {
    const email = uniqueEmail('import');
    const phone = await newPage(run.browser, run.server);
    await signUp(phone.page, email, 'van-route-42', 'Sam Driver');
    await phone.page.waitForURL('**/app/dashboard');
    await phone.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await phone.page.goto('/app/history');
    await phone.page.getByRole('heading', { name: 'Import' }).waitFor();
    // The default courier has reached the device, so the file's days have a courier offline.
    await syncNow(phone.page);

    const laptop = await newPage(run.browser, run.server);
    await logIn(laptop.page, email, 'van-route-42');
    await laptop.page.waitForURL('**/app/dashboard');

    await goOffline(phone.context);
    await pickFile(phone.page);
    await phone.page.getByText('New: 3 days').waitFor();
    const invalid = phone.page.getByRole('list', { name: '1 invalid row, not imported' });
    await invalid.getByText('Row 4').waitFor();
    assert.match((await invalid.textContent()) ?? '', /Stops must be a whole number/);
    await phone.page.getByRole('button', { name: 'Import 3 records' }).click();
    await phone.page.getByText(/Imported 3 days from old-app\.csv/).waitFor();
    await syncBadge(phone.page).getByText('3 changes pending sync').waitFor();
    assert.equal((await entries(laptop.page)).length, 0, 'nothing reached the server while offline');

    await goOnline(phone.context);
    const held = await serverHolds(phone.page, 'the three imported days', (records) => records.filter((r) => r.kind === 'entry').length === 3);
    const days = held
      .filter((r) => r.kind === 'entry')
      .map((r) => [r.data?.date, r.data?.stops, r.data?.extra, r.data?.total])
      .sort();
    // The totals are the file's, to the penny.
    assert.deepEqual(days, [
      ['2025-03-17', 101, 250, 20_250],
      ['2025-03-18', 102, 0, 20_400],
      ['2025-03-20', 103, 0, 20_600],
    ]);

    // The second device has them, and importing the same file there adds nothing.
    await laptop.page.goto('/app/history');
    await laptop.page.getByText('3 entries, newest first').waitFor({ timeout: 20_000 });
    await pickFile(laptop.page);
    await laptop.page.getByText('Nothing new to import.').waitFor();
    await laptop.page.getByText('3 duplicates, skipped').waitFor();
    assert.equal(await laptop.page.getByRole('button', { name: 'Nothing to import' }).isDisabled(), true);

    // Nor on the first device, a second time.
    await phone.page.getByRole('button', { name: 'Import another file' }).click();
    await pickFile(phone.page);
    await phone.page.getByText('Nothing new to import.').waitFor();
    assert.equal((await entries(phone.page)).length, 3, 'still exactly three days on the server');

    await phone.context.close();
    await laptop.context.close();
  });

  it('imports the same CSV on two offline devices into one set of days on the server', async () => {
    const email = uniqueEmail('import-twice');
    const devices = [await newPage(run.browser, run.server), await newPage(run.browser, run.server)];
    const [phone, laptop] = devices as [(typeof devices)[number], (typeof devices)[number]];
    await signUp(phone.page, email, 'van-route-42', 'Sam Driver');
    await phone.page.waitForURL('**/app/dashboard');
    await logIn(laptop.page, email, 'van-route-42');
    await laptop.page.waitForURL('**/app/dashboard');
    for (const { page } of devices) {
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      // The default courier has reached the device, so its days can be read offline.
      await syncNow(page);
      await page.goto('/app/history');
      await page.getByRole('heading', { name: 'Import' }).waitFor();
    }

    for (const { context, page } of devices) {
      await goOffline(context);
      await pickFile(page);
      await page.getByText('New: 3 days').waitFor();
      await page.getByRole('button', { name: 'Import 3 records' }).click();
      await page.getByText(/Imported 3 days from old-app\.csv/).waitFor();
      await syncBadge(page).getByText('3 changes pending sync').waitFor();
    }

    // Both devices push their three days: the same ids, so the server holds each day once.
    for (const { context, page } of devices) {
      await goOnlineUntilSynced(context, page);
      assert.equal(await page.getByText(/not accepted|parked/i).count(), 0);
    }
    const days = (await entries(laptop.page)).map((r) => [r.data?.date, r.data?.stops, r.data?.total]).sort();
    assert.deepEqual(days, [
      ['2025-03-17', 101, 20_250],
      ['2025-03-18', 102, 20_400],
      ['2025-03-20', 103, 20_600],
    ]);
    await laptop.page.getByText('3 entries, newest first').waitFor({ timeout: 20_000 });
    await phone.page.getByText('3 entries, newest first').waitFor({ timeout: 20_000 });

    await phone.context.close();
    await laptop.context.close();
  });

  it("round-trips the JSON export into another account, with new ids the server accepts, once", async () => {
    const from = await newPage(run.browser, run.server);
    await signUp(from.page, uniqueEmail('export-from'));
    await from.page.waitForURL('**/app/dashboard');
    await addEntry(from.page, '2025-04-07', 111, 'Monday from the old account');
    await addEntry(from.page, '2025-04-08', 112, 'Tuesday from the old account');
    await from.page.goto('/app/history');
    const [download] = await Promise.all([from.page.waitForEvent('download'), from.page.getByRole('button', { name: 'Export JSON' }).click()]);
    const json = readFileSync((await download.path()) as string);
    const exported = JSON.parse(json.toString()) as { entries: { id: string; total: number }[] };
    assert.equal(exported.entries.length, 2);

    const to = await newPage(run.browser, run.server);
    await signUp(to.page, uniqueEmail('export-to'));
    await to.page.waitForURL('**/app/dashboard');
    // This account's default courier has arrived, so the file's equal one is its duplicate
    // (on a slow machine the preview could otherwise come before the first pull).
    await syncNow(to.page);
    await to.page.goto('/app/history');
    const pick = () => to.page.getByLabel('File to import').setInputFiles({ name: 'export.json', mimeType: 'application/json', buffer: json });
    await pick();
    await to.page.getByText(/JSON export from another account/).waitFor();
    await to.page.getByText('New: 2 days').waitFor();
    await to.page.getByRole('button', { name: 'Import 2 records' }).click();
    await to.page.getByText(/Imported 2 days/).waitFor();

    const held = await serverHolds(to.page, 'the two imported days', (records) => records.filter((r) => r.kind === 'entry').length === 2);
    const days = held.filter((r) => r.kind === 'entry');
    // New ids (the old account still owns its own), the same days and totals to the penny.
    for (const day of days) assert.ok(!exported.entries.some((e) => e.id === day.id));
    assert.deepEqual(days.map((d) => [d.data?.date, d.data?.notes, d.data?.total]).sort(), [
      ['2025-04-07', 'Monday from the old account', exported.entries[0]?.total],
      ['2025-04-08', 'Tuesday from the old account', exported.entries[1]?.total],
    ]);
    // Nothing was refused: no change waits as parked.
    assert.equal(await to.page.getByText(/not accepted|parked/i).count(), 0);

    await to.page.getByRole('button', { name: 'Import another file' }).click();
    await pick();
    await to.page.getByText('Nothing new to import.').waitFor();
    assert.equal((await entries(to.page)).length, 2);
    await from.context.close();
    await to.context.close();
  });
});
