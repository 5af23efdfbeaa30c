// Issue 12, days and money, in Chromium against the real binary: a driver logs days for their
// default courier (with parcels and start/finish times behind "More details"), sees the pay of
// a week with £ per hour and £ per stop, the card's rates change, and an old day whose notes are
// edited offline keeps its total to the penny while a day whose stops change is re-priced; the
// second device sees both. (Two couriers are covered by the component tests until the courier
// settings screen exists: couriers are only made through the UI here.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { goOffline, goOnlineUntilSynced, logIn, newPage, openCourier, signUp, syncBadge, uniqueEmail, serverAndBrowser, openDayForm, dayForm } from './harness';

const run = serverAndBrowser();

const entryCard = (page: Page, day: string) => page.getByRole('article', { name: `Entry for ${day}` });

interface Day {
  date: string;
  stops: number;
  notes: string;
  parcels?: number;
  start?: string;
  finish?: string;
}

/** Logs a day with the entry form, opening "More details" for what the card does not pay for. */
async function logDay(page: Page, day: Day): Promise<void> {
  const form = await openDayForm(page);
  await form.getByLabel('Date').fill(day.date);
  await form.getByLabel('Stops').fill(String(day.stops));
  if (day.parcels !== undefined || day.start !== undefined) {
    const more = form.locator('details');
    if ((await more.getAttribute('open')) === null) await form.getByText('More details').click();
    if (day.parcels !== undefined) await form.getByLabel('Parcels').fill(String(day.parcels));
    if (day.start !== undefined) await form.getByLabel('Start time').fill(day.start);
    if (day.finish !== undefined) await form.getByLabel('Finish time').fill(day.finish);
  }
  await form.getByLabel('Notes').fill(day.notes);
  await form.getByRole('button', { name: 'Save Entry' }).click();
  await form.getByText('Entry saved successfully!').waitFor();
}

describe('courier days', () => {
  it('logs days with details, shows the pay, and keeps an old day’s total when only its notes are edited after a rate change', async () => {
    const email = uniqueEmail('courier-days');
    const phone = await newPage(run.browser, run.server);
    await signUp(phone.page, email, 'van-route-42', 'Sam Driver');
    await phone.page.waitForURL('**/app/dashboard');
    await phone.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // The account's courier and its first card arrive with the first pull.
    await dayForm(phone.page).getByText('Priced with My courier rates from the start').waitFor({ timeout: 20_000 });
    assert.equal(await dayForm(phone.page).getByLabel('Courier').count(), 0, 'one courier: no picker');

    // Default tiers: 110 stops at £1.98, then £1.48.
    await logDay(phone.page, { date: '2025-03-17', stops: 100, parcels: 130, start: '07:30', finish: '15:45', notes: 'Monday run' }); // £198.00
    await logDay(phone.page, { date: '2025-03-18', stops: 120, notes: 'Tuesday run' }); // £232.60
    const monday = phone.page.getByRole('region', { name: 'Recent Entries' }).getByRole('article', { name: 'Entry for 17/03/2025' });
    await monday.getByText('07:30–15:45 (8h 15m) · 130 parcels').waitFor();
    await monday.getByText('£198.00').waitFor();

    // The week's pay in the history: gross, net, and the rates.
    await phone.page.goto('/app/history?from=2025-03-16&to=2025-03-22');
    const pay = phone.page.getByRole('region', { name: 'Pay in this period' });
    const tile = (label: string) => pay.getByRole('listitem').filter({ has: phone.page.getByText(label, { exact: true }) });
    await tile('Gross').getByText('£430.60').waitFor();
    await tile('Net').getByText('£430.60').waitFor();
    await tile('£ per hour').getByText('£24.00').waitFor(); // £198.00 over 8¼ hours
    await tile('£ per stop').getByText('£1.96').waitFor(); // £430.60 over 220 stops
    for (const day of ['17/03/2025', '18/03/2025']) await entryCard(phone.page, day).getByText('Synced').waitFor({ timeout: 20_000 });

    // The rates change on the courier's first card; the days already logged keep their pay (the
    // re-price offered is declined), and the form prices 100 stops at the new rate.
    await phone.page.goto('/app/settings');
    const mine = await openCourier(phone.page, 'My courier');
    await mine.getByRole('button', { name: 'Edit rates from the start' }).click();
    await mine.getByRole('spinbutton', { name: 'Tier 1: rate (£ per stop)' }).fill('1.50');
    await mine.getByRole('button', { name: 'Save', exact: true }).click();
    await mine.getByText('Payment settings saved successfully!').waitFor();
    await mine.getByRole('group', { name: /Re-price/ }).getByRole('button', { name: 'Not now' }).click();
    await phone.page.goto('/app/dashboard');
    await dayForm(phone.page).getByLabel('Stops').fill('100');
    await dayForm(phone.page).getByText('£150.00').waitFor({ timeout: 20_000 });

    // A second device, open on the history.
    const laptop = await newPage(run.browser, run.server);
    await logIn(laptop.page, email, 'van-route-42');
    await laptop.page.waitForURL('**/app/dashboard');
    await laptop.page.goto('/app/history');
    await entryCard(laptop.page, '18/03/2025').waitFor({ timeout: 20_000 });

    // Offline, the driver fixes Monday's notes and Tuesday's stops.
    await goOffline(phone.context);
    await phone.page.goto('/app/history');
    await phone.page.getByRole('button', { name: 'Edit entry for 17/03/2025' }).click();
    const editor = phone.page.getByRole('form', { name: 'Edit entry' });
    await editor.getByText('Nothing that decides pay was changed: the total stays as saved').waitFor();
    await editor.getByLabel('Notes').fill('Monday run, depot closed early');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await entryCard(phone.page, '17/03/2025').getByText('Monday run, depot closed early').waitFor();
    await entryCard(phone.page, '17/03/2025').getByText('£198.00').waitFor();

    await phone.page.getByRole('button', { name: 'Edit entry for 18/03/2025' }).click();
    await editor.getByLabel('Stops').fill('110');
    await editor.getByText('Priced with My courier rates from the start').waitFor();
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await entryCard(phone.page, '18/03/2025').getByText('£165.00').waitFor(); // 110 × £1.50: the card as it is now
    await syncBadge(phone.page).getByText('2 changes pending sync').waitFor();

    await goOnlineUntilSynced(phone.context, phone.page);

    // The laptop is poked and pulls: Monday's money never moved, Tuesday's follows its stops.
    await entryCard(laptop.page, '17/03/2025').getByText('Monday run, depot closed early').waitFor({ timeout: 20_000 });
    assert.equal(await entryCard(laptop.page, '17/03/2025').getByText('£198.00').count(), 1);
    await entryCard(laptop.page, '18/03/2025').getByText('£165.00').waitFor({ timeout: 20_000 });

    // And the server holds exactly those totals, with the card that priced each day.
    const pulled = await laptop.page.evaluate(async () => (await fetch('/api/v1/sync/pull?cursor=0')).json());
    const days = (pulled.changes as { kind: string; id: string; data?: { date: string; total: number; rateCardId: string | null; parcels: number | null; startTime: string | null; finishTime: string | null } }[])
      .filter((c) => c.kind === 'entry' && c.data)
      .map((c) => c.data!)
      .sort((a, b) => a.date.localeCompare(b.date));
    const userId = (pulled.changes as { kind: string; id: string }[]).find((c) => c.kind === 'courier')?.id;
    assert.ok(userId);
    assert.deepEqual(
      days.map(({ date, total, rateCardId, parcels, startTime, finishTime }) => ({ date, total, rateCardId, parcels, startTime, finishTime })),
      [
        { date: '2025-03-17', total: 19_800, rateCardId: userId, parcels: 130, startTime: '07:30', finishTime: '15:45' },
        { date: '2025-03-18', total: 16_500, rateCardId: userId, parcels: null, startTime: null, finishTime: null },
      ],
    );
    await phone.context.close();
    await laptop.context.close();
  });
});
