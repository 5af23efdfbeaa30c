// Issue 25, "one day, one record, unless the driver says otherwise", in Chromium against the
// real binary. Saving a courier's day that is already logged asks first (open that day, or add
// it as a separate shift, then shown with it as one day). Two devices that log the same day
// offline both flag it once they have synced; a merge on one (or keep-both) reaches the other
// through the server, and every device ends with the same days and the same totals.
// Each test fails on the main branch before issue 25: there a second save says "Entry saved
// successfully!" with no question, and nothing flags a day logged on two devices.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { addEntry, goOffline, goOnlineUntilSynced, logIn, newPage, serverHolds, signUp, syncNow, uniqueEmail, serverAndBrowser, type PulledRecord, openDayForm, dayForm } from './harness';

const run = serverAndBrowser();

const recentDay = (page: Page, day: string) => page.getByRole('region', { name: 'Recent Entries' }).getByRole('article', { name: `Entry for ${day}` });
const loggedTwice = (page: Page) => page.getByRole('region', { name: 'Logged twice' });

/** Fills the entry form without saving. */
async function fillDay(page: Page, date: string, stops: number, notes: string): Promise<void> {
  const form = await openDayForm(page);
  await form.getByLabel('Date').fill(date);
  await form.getByLabel('Stops').fill(String(stops));
  await form.getByLabel('Notes').fill(notes);
}

const days = (records: PulledRecord[], date: string) => records.filter((r) => r.kind === 'entry' && r.data?.date === date);

describe('one day, one record', () => {
  it('asks before saving a courier’s day twice, and adds a separate shift only when told', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('same-day'));
    await page.waitForURL('**/app/dashboard');
    await dayForm(page).getByText('Priced with My courier rates from the start').waitFor({ timeout: 20_000 });
    await addEntry(page, '2025-11-27', 128, 'Morning round'); // 110 × £1.98 + 18 × £1.48 = £244.44

    // The same day again: the form says so before anything is saved.
    await fillDay(page, '2025-11-27', 128, 'Saved again by mistake');
    await dayForm(page).getByRole('button', { name: 'Save Entry' }).click();
    const notice = dayForm(page).getByRole('group', { name: /already logged/ });
    await notice.waitFor();
    assert.equal((await notice.getByRole('alert').textContent())?.trim(), 'Thu 27/11/2025 is already logged: 128 stops, £244.44. Is this another shift, or the same day?');
    assert.equal(await page.getByText('Entry saved successfully!').count(), 0);
    await serverHolds(page, 'the first day', (records) => days(records, '2025-11-27').length === 1);

    // "Open that day" opens the day already logged, in its editor.
    await notice.getByRole('link', { name: 'Open that day' }).click();
    await page.waitForURL(/\/app\/history\?from=2025-11-27&to=2025-11-27/);
    const editor = page.getByRole('form', { name: 'Edit entry' });
    await editor.waitFor();
    assert.equal(await editor.getByLabel('Notes').inputValue(), 'Morning round');
    await editor.getByRole('button', { name: 'Cancel' }).click();
    // Read once: the link's "edit" leaves the address, so a reload does not reopen the editor.
    await page.waitForURL((url) => !url.searchParams.has('edit'));

    // Back on the dashboard, an afternoon shift this time: kept as a separate shift.
    await page.goto('/app/dashboard');
    await dayForm(page).getByText('Priced with My courier rates from the start').waitFor({ timeout: 20_000 });
    await fillDay(page, '2025-11-27', 40, 'Afternoon top-up'); // 40 × £1.98 = £79.20
    await dayForm(page).getByRole('button', { name: 'Save Entry' }).click();
    await dayForm(page).getByRole('group', { name: /already logged/ }).getByRole('button', { name: 'Add as a separate shift' }).click();
    await page.getByText('Entry saved successfully as a separate shift!').waitFor();

    // Shown as one day: its figures added up, each shift under it; never flagged as logged twice.
    const day = recentDay(page, '27/11/2025');
    await day.getByText('2 shifts').waitFor();
    await day.getByText('£323.64').waitFor();
    assert.equal(await day.getByRole('listitem').count(), 2);
    assert.equal(await loggedTwice(page).count(), 0);

    const held = await serverHolds(page, 'both shifts', (records) => days(records, '2025-11-27').length === 2);
    assert.deepEqual(
      days(held, '2025-11-27')
        .map((r) => [r.data?.total, r.data?.separateShift])
        .sort(),
      [
        [24_444, false],
        [7_920, true],
      ].sort(),
    );
    await context.close();
  });

  it('flags a day two devices logged offline, and a merge on one reaches the other; keep-both is remembered everywhere', async () => {
    const email = uniqueEmail('two-devices');
    const phone = await newPage(run.browser, run.server);
    await signUp(phone.page, email, 'van-route-42');
    await phone.page.waitForURL('**/app/dashboard');
    await phone.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const laptop = await newPage(run.browser, run.server);
    await logIn(laptop.page, email, 'van-route-42');
    await laptop.page.waitForURL('**/app/dashboard');
    await laptop.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    for (const device of [phone, laptop]) {
      await syncNow(device.page);
      await dayForm(device.page).getByText('Priced with My courier rates from the start').waitFor({ timeout: 20_000 });
    }

    // No signal on either: each logs Thursday and Friday, and neither can know of the other's.
    await goOffline(phone.context);
    await goOffline(laptop.context);
    await addEntry(phone.page, '2025-11-27', 128, 'Phone'); // £244.44
    await addEntry(laptop.page, '2025-11-27', 130, 'Laptop'); // £247.40
    await addEntry(phone.page, '2025-11-28', 100, 'Friday on the phone'); // £198.00
    await addEntry(laptop.page, '2025-11-28', 100, 'Friday on the laptop');
    await goOnlineUntilSynced(phone.context, phone.page);
    await goOnlineUntilSynced(laptop.context, laptop.page);
    await syncNow(phone.page);

    // Both devices flag both days, with what each copy says.
    for (const device of [phone, laptop]) {
      const panel = loggedTwice(device.page);
      await panel.getByRole('article', { name: 'Thu 27/11/2025: 2 copies' }).waitFor({ timeout: 20_000 });
      await panel.getByRole('article', { name: 'Fri 28/11/2025: 2 copies' }).waitFor({ timeout: 20_000 });
    }
    await serverHolds(phone.page, 'all four copies', (records) => days(records, '2025-11-27').length === 2 && days(records, '2025-11-28').length === 2);

    // On the phone: Thursday's copies differ, so the laptop's figures are picked, then merged.
    const thursday = loggedTwice(phone.page).getByRole('article', { name: 'Thu 27/11/2025: 2 copies' });
    await thursday.getByRole('radio', { name: /130 stops · £247\.40/ }).check();
    await thursday.getByRole('button', { name: 'Merge into one day' }).click();
    await loggedTwice(phone.page).getByText('Merged Thu 27/11/2025 into one day').waitFor();

    // On the laptop: Friday was two shifts after all.
    const friday = loggedTwice(laptop.page).getByRole('article', { name: 'Fri 28/11/2025: 2 copies' });
    await friday.getByRole('button', { name: 'Keep both as shifts' }).click();

    // The server ends with one Thursday (the laptop's figures, both notes) and two Friday shifts.
    const held = await serverHolds(
      phone.page,
      'the merged Thursday and Friday’s shifts',
      (records) => days(records, '2025-11-27').length === 1 && days(records, '2025-11-28').filter((r) => r.data?.separateShift === true).length === 1,
    );
    assert.deepEqual(
      days(held, '2025-11-27').map((r) => [r.data?.stops, r.data?.total, r.data?.notes]),
      [[130, 24_740, 'Laptop · Phone']],
    );

    // Both devices converge: no flag, Thursday as one day, Friday as one day of two shifts, and
    // the week's gross counts each saved pound once (£247.40 + 2 × £198.00).
    for (const device of [phone, laptop]) {
      await syncNow(device.page);
      await device.page.goto('/app/history?from=2025-11-23&to=2025-11-29');
      const list = device.page.getByRole('list', { name: 'Entries' });
      await list.getByRole('article', { name: 'Entry for 28/11/2025' }).getByText('2 shifts').waitFor({ timeout: 20_000 });
      await list.getByRole('article', { name: 'Entry for 27/11/2025' }).getByText('£247.40').waitFor({ timeout: 20_000 });
      assert.equal(await list.getByRole('article', { name: 'Entry for 27/11/2025' }).getByText(/shifts/).count(), 0);
      assert.equal(await loggedTwice(device.page).count(), 0);
      const pay = device.page.getByRole('region', { name: 'Pay in this period' });
      const gross = pay.getByRole('listitem').filter({ has: device.page.getByText('Gross', { exact: true }) });
      await gross.getByText('£643.40').waitFor();
      await gross.getByText('2 days worked').waitFor();
    }
    // Kept as shifts is remembered: after a reload nothing comes back.
    await laptop.page.reload();
    await laptop.page.getByRole('list', { name: 'Entries' }).getByRole('article', { name: 'Entry for 28/11/2025' }).waitFor({ timeout: 20_000 });
    assert.equal(await loggedTwice(laptop.page).count(), 0);

    await phone.context.close();
    await laptop.context.close();
  });
});
