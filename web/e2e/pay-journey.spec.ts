// [12] The pay journey end to end in Chromium against the real binary, with a period offline in
// the middle: a driver sets a weekly van-hire deduction and adds a second courier paid per
// parcel, goes offline, logs two days, cuts the default courier's rates from between them (the
// re-price of the later day is offered, confirmed and undone), logs a day after the cut (the
// new rate) and a day for the second courier (the courier picker), edits the first day's notes
// (its pay does not move), comes back online, and a second device shows the same days, the same
// totals and the week's net pay with the van hire taken off.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { addEntry, courierItem, couriersSection, goOffline, goOnline, logIn, newPage, openCourier, openNav, serverHolds, signUp, syncBadge, short, thisWeek, uniqueEmail, serverAndBrowser, openDayForm, saveDayForm } from './harness';

const run = serverAndBrowser();


/** The week's pay panel on the dashboard, one tile by its label. */
function weekTile(page: Page, label: string): Locator {
  return page.getByRole('region', { name: "This week's pay" }).getByText(label, { exact: true }).locator('xpath=ancestor::li[1]');
}

describe('the pay journey', () => {
  it('keeps two couriers, a rate cut and a deduction straight through an offline spell, on a second device too', async () => {
    const email = uniqueEmail('journey');
    const phone = await newPage(run.browser, run.server);
    await signUp(phone.page, email, 'van-route-42', 'Sam Driver');
    await phone.page.waitForURL('**/app/dashboard');
    await phone.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const [monday, tuesday, wednesday, thursday, friday] = [thisWeek(1), thisWeek(2), thisWeek(3), thisWeek(4), thisWeek(5)];

    // Online: a weekly van hire on the driver's own courier, and a second courier paid per parcel.
    await openNav(phone.page, 'Settings');
    const mine = await openCourier(phone.page, 'My courier');
    await mine.getByRole('button', { name: 'Add deduction' }).click();
    await mine.getByLabel('What it is for').selectOption('vehicleHire');
    await mine.getByLabel('Name on the statement').fill('Van hire');
    await mine.getByLabel('Amount (£)').fill('195');
    await mine.getByLabel('Repeats').selectOption('weekly');
    await mine.getByLabel('First charge').fill(thisWeek(0));
    await mine.getByRole('button', { name: 'Add deduction' }).last().click();
    await mine.getByText('Van hire').waitFor();

    await couriersSection(phone.page).getByRole('button', { name: 'Add courier' }).click();
    await phone.page.getByLabel('Name').fill('Evri');
    await couriersSection(phone.page).getByRole('button', { name: 'Add courier' }).click();
    // A courier just added opens by itself: opening it here could read it shut a moment before
    // it opens, and then shut it again.
    const evri = courierItem(phone.page, 'Evri');
    await evri.getByRole('button', { name: 'Edit rates from the start' }).click();
    await evri.getByRole('checkbox', { name: 'Pay per stop, in tiers' }).uncheck();
    await evri.getByRole('button', { name: 'Per parcel, collection or failed item' }).click();
    await evri.getByLabel(/Per parcel/).fill('0.45');
    await evri.getByRole('button', { name: 'Save' }).click();
    await evri.getByText('Payment settings saved successfully!').waitFor();
    await serverHolds(phone.page, 'the van hire and the Evri card', (records) =>
      records.some((c) => c.kind === 'deduction' && c.data?.label === 'Van hire') && records.some((c) => c.kind === 'rateCard' && c.data?.perParcel === 45),
    );

    // The laptop signs in now and stays open all along.
    const laptop = await newPage(run.browser, run.server);
    await logIn(laptop.page, email, 'van-route-42');
    await laptop.page.waitForURL('**/app/dashboard');

    // Offline on the phone from here.
    await goOffline(phone.context);
    await openNav(phone.page, 'Home');
    await addEntry(phone.page, monday, 100, 'Before the cut'); // default tiers: £198.00
    await addEntry(phone.page, wednesday, 100, 'Logged before the cut was known'); // £198.00

    await openNav(phone.page, 'Settings');
    const cut = await openCourier(phone.page, 'My courier');
    await cut.getByRole('button', { name: 'Change rates from a date' }).click();
    await cut.getByLabel('New rates start on').fill(tuesday);
    await cut.getByRole('spinbutton', { name: 'Tier 1: rate (£ per stop)' }).fill('1.90');
    await cut.getByRole('button', { name: 'Save' }).click();
    await cut.getByText(`From ${short(tuesday)}`, { exact: true }).waitFor();
    // Offered for the Wednesday only (the Monday is before the cut), confirmed, then undone.
    const offer = cut.getByRole('group', { name: /Re-price/ });
    assert.equal((await offer.locator('p').first().textContent())?.trim(), `Re-price 1 day with the rates from ${short(tuesday)}?`);
    await offer.getByRole('listitem').filter({ hasText: `${short(wednesday)}−£8.00` }).waitFor();
    await offer.getByRole('button', { name: 'Re-price' }).click();
    await cut.getByText('Re-priced 1 day').waitFor();
    await cut.getByRole('button', { name: 'Undo' }).click();
    await cut.getByText('Re-priced 1 day').waitFor({ state: 'detached' });

    await openNav(phone.page, 'Home');
    await addEntry(phone.page, friday, 100, 'After the cut'); // a new day: 100 × £1.90 = £190.00
    // Evri pays per parcel: the form asks for parcels, not stops.
    const evriDay = await openDayForm(phone.page);
    await evriDay.getByLabel('Courier').selectOption({ label: 'Evri' });
    await evriDay.getByLabel('Date').fill(thursday);
    await evriDay.getByLabel('Parcels').fill('100');
    await evriDay.getByLabel('Notes').fill('Evri round');
    await saveDayForm(phone.page, evriDay, thursday); // 100 parcels × £0.45 = £45.00

    // The old day's notes, edited offline: its pay stays as it was saved.
    await phone.page.goto('/app/history');
    await phone.page.getByRole('button', { name: `Edit entry for ${short(monday)}` }).click();
    const editor = phone.page.getByRole('form', { name: 'Edit entry' });
    await editor.getByLabel('Notes').fill('Before the cut, rain all day');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    const old = phone.page.getByRole('article', { name: `Entry for ${short(monday)}` });
    await old.getByText('Before the cut, rain all day').waitFor();
    await old.getByText('£198.00').waitFor();
    await syncBadge(phone.page).getByText(/pending sync/).waitFor();

    await goOnline(phone.context);
    const live = await serverHolds(phone.page, 'the three days and the cut', (records) => {
      const entries = records.filter((c) => c.kind === 'entry');
      return entries.length === 4 && entries.some((c) => c.data?.notes === 'Before the cut, rain all day') && records.some((c) => c.data?.validFrom === tuesday);
    });

    // The laptop was poked: the week's pay with the van hire taken off, and every day as saved.
    await weekTile(laptop.page, 'Gross').getByText('£631.00').waitFor({ timeout: 30_000 });
    assert.match((await weekTile(laptop.page, 'Deductions').textContent()) ?? '', /−£195\.00/);
    assert.match((await weekTile(laptop.page, 'Net').textContent()) ?? '', /£436\.00/);
    await laptop.page.goto('/app/history');
    const expected: [string, string, string][] = [
      [monday, '£198.00', 'Before the cut, rain all day'],
      [wednesday, '£198.00', 'Logged before the cut was known'],
      [friday, '£190.00', 'After the cut'],
      [thursday, '£45.00', 'Evri round'],
    ];
    for (const [date, total, notes] of expected) {
      const card = laptop.page.getByRole('article', { name: `Entry for ${short(date)}` });
      await card.getByText(total).waitFor({ timeout: 20_000 });
      await card.getByText(notes).waitFor();
    }
    await laptop.page.getByRole('article', { name: `Entry for ${short(thursday)}` }).getByText('Evri').first().waitFor();

    // And the server holds each day with the card that priced it.
    const cardFrom = (courierName: string, validFrom: string) => {
      const courier = live.find((c) => c.kind === 'courier' && c.data?.name === courierName)!;
      return live.find((c) => c.kind === 'rateCard' && c.data?.courierId === courier.id && c.data?.validFrom === validFrom)!.id;
    };
    const days = Object.fromEntries(live.filter((c) => c.kind === 'entry').map((c) => [c.data!.date, [c.data!.total, c.data!.rateCardId]]));
    assert.deepEqual(days, {
      [monday]: [19_800, cardFrom('My courier', '2000-01-01')],
      [wednesday]: [19_800, cardFrom('My courier', '2000-01-01')],
      [friday]: [19_000, cardFrom('My courier', tuesday)],
      [thursday]: [4_500, cardFrom('Evri', '2000-01-01')],
    });
    await phone.context.close();
    await laptop.context.close();
  });
});
