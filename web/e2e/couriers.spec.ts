// [issue 12] Couriers and rate cards in Chromium against the real binary: a second courier with
// a per-parcel card, a rate cut from a date on the default courier, the re-price it offers (the
// right number of days and £ difference), confirmed and seen in the history, then undone; the
// server ends up with what the device shows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import type { Page } from 'playwright-core';
import { addEntry, courierItem, couriersSection, newPage, openCourier, openNav, serverHolds, serverRecords, signUp, uniqueEmail, serverAndBrowser, type PulledRecord } from './harness';

const run = serverAndBrowser();

async function totalOf(history: Page, day: string): Promise<string> {
  const card = history.getByRole('article', { name: `Entry for ${day}` });
  await card.waitFor();
  return (await card.textContent()) ?? '';
}

/** Waits until the day's card in the history shows `total` (the history follows the database live). */
async function expectTotal(history: Page, day: string, total: string): Promise<void> {
  await history.getByRole('article', { name: `Entry for ${day}` }).getByText(total).waitFor({ timeout: 20_000 });
}

/** Each day's [total, rateCardId] on the server, once the device has pushed them (a wait on the server, not a timed assertion). */
async function serverDaysBecome(page: Page, expected: Record<string, [number, string | null]>): Promise<void> {
  const daysOf = (records: PulledRecord[]) =>
    Object.fromEntries(records.filter((c) => c.kind === 'entry').map((c) => [c.data!.date, [c.data!.total, c.data!.rateCardId]]));
  const held = await serverHolds(page, `the days ${JSON.stringify(expected)}`, (records) => isDeepStrictEqual(daysOf(records), expected));
  assert.deepEqual(daysOf(held), expected);
}

describe('couriers and rate cards', () => {
  it('adds a per-parcel courier, cuts the default rates from a date, re-prices the days after it and undoes that', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('couriers'));
    await page.waitForURL('**/app/dashboard');
    // Priced with the spec's default tiers: 110 × £1.98, then £1.48.
    await addEntry(page, '2025-08-30', 100, 'Before the cut'); // £198.00
    await addEntry(page, '2025-09-02', 100, 'After the cut'); // £198.00
    await addEntry(page, '2025-09-03', 120, 'Long day'); // £232.60

    await openNav(page, 'Settings');
    await page.getByRole('heading', { name: 'Payment Settings' }).waitFor();
    // The account's own courier comes from the server.
    const mine = await openCourier(page, 'My courier');
    await mine.getByText('From the start').waitFor();
    await mine.getByText('Weekly from Sunday').waitFor();

    // A second courier, paid per parcel with a cap.
    await couriersSection(page).getByRole('button', { name: 'Add courier' }).click();
    await page.getByLabel('Name').fill('Evri');
    await page.getByRole('radio', { name: 'Green' }).check();
    await page.getByLabel('Pay period').selectOption('fourFourFive');
    await page.getByLabel('A cycle starts on').fill('2025-01-05');
    await page.getByLabel('Weeks in arrears').fill('1');
    await couriersSection(page).getByRole('button', { name: 'Add courier' }).click();
    const evri = courierItem(page, 'Evri');
    await evri.getByText('4-4-5 from 05/01/2025, paid 1 week in arrears').waitFor();
    await evri.getByRole('button', { name: 'Edit rates from the start' }).click();
    await evri.getByRole('checkbox', { name: 'Pay per stop, in tiers' }).uncheck();
    await evri.getByRole('button', { name: 'Per parcel, collection or failed item' }).click();
    await evri.getByLabel(/Per parcel/).fill('0.45');
    await evri.getByLabel(/Parcels paid a stop/).fill('3');
    await evri.getByRole('button', { name: 'Save' }).click();
    await evri.getByText('Payment settings saved successfully!').waitFor();
    await evri.getByRole('button', { name: 'Close' }).click();
    await evri.getByText('£0.45 a parcel (up to 3 a stop)').waitFor();
    assert.equal(await evri.getByRole('group', { name: /Re-price/ }).count(), 0, 'Evri has no days to re-price');

    // The default courier's rate cut from 01/09/2025.
    await mine.getByRole('button', { name: 'Change rates from a date' }).click();
    await mine.getByLabel('New rates start on').fill('2025-09-01');
    await mine.getByRole('spinbutton', { name: 'Tier 1: rate (£ per stop)' }).fill('1.90');
    await mine.getByRole('button', { name: 'Save' }).click();
    const offer = mine.getByRole('group', { name: /Re-price/ });
    await offer.waitFor();
    // 100 stops: −£8.00; 120 stops: 110 × −£0.08 = −£8.80. The day before the cut is not in it,
    // and the offer names the card's start (01/09), not the first day that moves (02/09).
    assert.equal((await offer.locator('p').first().textContent())?.trim(), 'Re-price 2 days with the rates from 01/09/2025?');
    const moves = await offer.getByRole('region', { name: 'Days that would be re-priced' }).getByRole('listitem').allTextContents();
    assert.deepEqual(moves, ['Tue 02/09/2025−£8.00Now £198.00 · after £190.00', 'Wed 03/09/2025−£8.80Now £232.60 · after £223.80']);
    assert.equal(await offer.getByText('Total: now £430.60 · after £413.80 · −£16.80').count(), 1);
    await mine.getByText('From 01/09/2025', { exact: true }).waitFor();

    // The history, open in a second tab of the same device, still shows the old pay.
    const history = await context.newPage();
    await history.goto('/app/history');
    await expectTotal(history, '02/09/2025', '£198.00');

    await offer.getByRole('button', { name: 'Re-price' }).click();
    await mine.getByText('Re-priced 2 days').waitFor();
    await expectTotal(history, '02/09/2025', '£190.00');
    await expectTotal(history, '03/09/2025', '£223.80');
    assert.match(await totalOf(history, '30/08/2025'), /£198\.00/);

    // The re-priced days reached the server with the new card (pushed in the background: the
    // server is asked until it holds the card, then the days are waited for below).
    const records = await serverHolds(page, 'the new card', (held) => held.some((c) => c.kind === 'rateCard' && c.data?.validFrom === '2025-09-01'));
    // The default courier's id is the account's id, and so is its first card's.
    const mineId = records.find((c) => c.kind === 'courier' && c.data?.name === 'My courier')!.id;
    const cutId = records.find((c) => c.kind === 'rateCard' && c.data?.validFrom === '2025-09-01')?.id;
    assert.ok(cutId, 'the new card reached the server');
    const before: Record<string, [number, string | null]> = { '2025-08-30': [19_800, mineId], '2025-09-02': [19_800, mineId], '2025-09-03': [23_260, mineId] };
    await serverDaysBecome(page, { '2025-08-30': [19_800, mineId], '2025-09-02': [19_000, cutId], '2025-09-03': [22_380, cutId] });

    await mine.getByRole('button', { name: 'Undo' }).click();
    await expectTotal(history, '02/09/2025', '£198.00');
    await expectTotal(history, '03/09/2025', '£232.60');
    assert.match(await totalOf(history, '30/08/2025'), /£198\.00/);

    // Everything reached the server as the device has it: two couriers, three cards, each day
    // back on its old total and card.
    await serverDaysBecome(page, before);
    const live = await serverRecords(page);
    assert.deepEqual(live.filter((c) => c.kind === 'courier').map((c) => c.data?.name).sort(), ['Evri', 'My courier']);
    const cards = live.filter((c) => c.kind === 'rateCard').map((c) => c.data!);
    assert.equal(cards.length, 3);
    assert.ok(cards.some((c) => c.perParcel === 45 && c.parcelCapPerStop === 3 && c.perStop === null && c.validFrom === '2000-01-01'));
    await context.close();
  });
});
