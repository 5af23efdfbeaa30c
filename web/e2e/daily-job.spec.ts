// [26] The daily job in seconds, in Chromium at 390×844 against the real binary: a returning
// driver logs today from the top of the dashboard with the keyboard open and never scrolls; a
// shift started, the tab closed, reopened offline and ended fills the day's times; and a day with
// the van's odometer writes that day's mileage record (the commute taken off) and prefills the
// next day's start.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { goOffline, goOnline, newPage, serverHolds, signUp, uniqueEmail, serverAndBrowser, deviceDay, dayForm } from './harness';

const run = serverAndBrowser();

const DAY_MS = 86_400_000;
const addDays = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/**
 * Whether the whole of `locator` is inside the viewport as the page stands (no scrolling), and
 * nothing (the bottom bar, the sync strip) lies over its middle.
 */
async function inView(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  assert.ok(box && viewport);
  const inside = box.y >= 0 && box.x >= 0 && box.y + box.height <= viewport.height && box.x + box.width <= viewport.width;
  const onTop = await locator.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return hit !== null && (hit === element || element.contains(hit));
  });
  return inside && onTop;
}

async function ready(page: Page) {
  await page.waitForURL('**/app/dashboard');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await dayForm(page).getByRole('button', { name: 'Save Entry' }).and(page.locator(':enabled')).waitFor();
}

describe('the daily job', () => {
  it('a returning driver logs today from the top with the keyboard open, never scrolling, and one tap edits it', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('today'));
    await ready(page);
    // Returning: yesterday is logged already.
    const today = deviceDay();
    await dayForm(page).getByLabel('Date').fill(addDays(today, -1));
    await dayForm(page).getByLabel('Stops').fill('100');
    await dayForm(page).getByRole('button', { name: 'Save Entry' }).click();
    await page.getByText('Entry saved successfully!').waitFor();

    await page.close();

    // The next morning the app opens again; the keyboard takes the bottom of the 844 px
    // screen, so 500 px are left.
    const page2 = await context.newPage();
    await page2.setViewportSize({ width: 390, height: 500 });
    await page2.goto('/app/dashboard');
    await ready(page2);
    await logTodayWithTheKeyboardOpen(page2, today);
  });
});

/** Logs today at 390×500 (the keyboard open), checking nothing scrolls, then edits it with one tap. */
async function logTodayWithTheKeyboardOpen(page: Page, today: string) {
  const form = dayForm(page);
  // The form is the first thing on the dashboard, above the greeting.
  const [formTop, greetingTop] = await Promise.all([form.boundingBox(), page.getByTestId('greeting-card').boundingBox()]);
  assert.ok(formTop && greetingTop && formTop.y < greetingTop.y, 'the day form comes before the greeting');
  assert.equal(await form.getByLabel('Date').inputValue(), today);
  const stops = form.getByLabel('Stops');
  await stops.focus();
  await page.keyboard.type('120');
  const save = form.getByRole('button', { name: 'Save Entry' });
  assert.equal(await inView(page, stops), true, 'Stops in sight with the keyboard open');
  assert.equal(await inView(page, save), true, 'Save in sight with the keyboard open');
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'nothing scrolled');
  await save.click();

  // Today now reads as the logged day: its pay, and one tap edits it.
  const todayCard = page.getByRole('region', { name: /^Today/ });
  const logged = todayCard.getByRole('button', { name: /^Edit today: £/ });
  await logged.waitFor();
  assert.match((await logged.getAttribute('aria-label')) ?? '', /120 stops/);
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'still nothing scrolled');
  await logged.click();
  const editor = page.getByRole('form', { name: 'Edit entry' });
  assert.equal(await editor.getByLabel('Stops').inputValue(), '120');
  await editor.getByLabel('Stops').fill('121');
  await editor.getByRole('button', { name: 'Save changes' }).click();
  await todayCard.getByRole('button', { name: /^Edit today: £.*121 stops/ }).waitFor();
  await page.close();
}

describe('the + on every screen', () => {
  it('opens the same day form for any date from every app screen, and closes once the day is saved', async () => {
    const { page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('plus'));
    await ready(page);
    for (const path of ['/app/dashboard', '/app/spending', '/app/tax', '/app/profile', '/app/settings', '/app/history']) {
      await page.goto(path);
      const plus = page.getByRole('button', { name: 'Log a day' });
      await plus.waitFor();
      assert.equal(await inView(page, plus), true, `the + in sight on ${path}`);
    }
    // From the history screen: a day last week.
    const day = addDays(deviceDay(), -6);
    await page.getByRole('button', { name: 'Log a day' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log a day' });
    await dialog.getByLabel('Date').fill(day);
    await dialog.getByLabel('Stops').fill('90');
    await dialog.getByRole('button', { name: 'Save Entry' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('article', { name: `Entry for ${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}` }).waitFor();
    await page.close();
  });
});

describe('the day’s clock and odometer', () => {
  it('a shift started, the tab closed, reopened offline and ended fills the day’s times', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('shift'));
    await ready(page);
    await page.getByRole('button', { name: 'Start shift' }).click();
    const running = page.getByText(/^On shift since \d\d:\d\d/);
    await running.waitFor();
    const startTime = /(\d\d:\d\d)/.exec((await running.textContent()) ?? '')![1]!;
    await page.close();

    // No signal: the app opens from the service worker, the clock from the device.
    await goOffline(context);
    const again = await context.newPage();
    await again.goto('/app/dashboard');
    await again.getByText(`On shift since ${startTime}`).waitFor();
    await again.getByRole('button', { name: 'End shift' }).click();
    await again.getByText(new RegExp(`^Shift ${startTime}–\\d\\d:\\d\\d`)).waitFor();
    const form = dayForm(again);
    assert.equal(await form.getByLabel('Start time').inputValue(), startTime);
    const finish = await form.getByLabel('Finish time').inputValue();
    assert.match(finish, /^\d\d:\d\d$/);
    assert.equal(await form.getByLabel('Date').inputValue(), deviceDay());

    // The times stay editable; saved, the day holds them and the clock is cleared.
    await form.getByLabel('Stops').fill('80');
    await form.getByRole('button', { name: 'Save Entry' }).click();
    await again.getByRole('button', { name: /^Edit today: £.*80 stops/ }).waitFor();
    assert.equal(await again.evaluate(() => Object.keys(localStorage).some((key) => key.startsWith('delivery-tracker:shift:'))), false);
    await goOnline(context);
    const records = await serverHolds(again, 'the day with its times', (all) => all.some((r) => r.kind === 'entry'));
    const day = records.find((r) => r.kind === 'entry')!.data!;
    assert.deepEqual([day.startTime, day.finishTime, day.stops], [startTime, finish, 80]);
    await again.close();
  });

  it('a day with the van’s odometer writes its mileage record, the commute taken off, and the next day starts from its finish', async () => {
    const { page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('odometer'));
    await ready(page);
    // The van, with its commute: 6 miles home to depot.
    await page.goto('/app/spending?view=mileage&add=1');
    const vehicleForm = page.getByRole('form', { name: 'Add a vehicle' });
    await vehicleForm.getByLabel('Name').fill('Transit');
    await vehicleForm.getByLabel(/^Commute, home to depot/).fill('6');
    await vehicleForm.getByRole('button', { name: 'Add vehicle' }).click();
    await page.getByRole('region', { name: 'Vehicles' }).getByText('Transit').waitFor();

    await page.goto('/app/dashboard');
    await ready(page);
    const today = deviceDay();
    const yesterday = addDays(today, -1);
    const form = dayForm(page);
    await form.getByLabel('Date').fill(yesterday);
    await form.getByLabel('Stops').fill('100');
    await form.getByText('More details').click();
    assert.equal(await form.getByLabel('Commute today (miles)').inputValue(), '12');
    await form.getByLabel('Odometer start').fill('42000');
    await form.getByLabel('Odometer finish').fill('42130');
    await form.getByText('118 business miles').waitFor();
    await form.getByRole('button', { name: 'Save Entry' }).click();
    await page.getByText('Entry saved successfully!').waitFor();

    const records = await serverHolds(page, 'the day and its mileage', (all) => all.some((r) => r.kind === 'mileage') && all.some((r) => r.kind === 'entry'));
    const mileage = records.filter((r) => r.kind === 'mileage');
    assert.equal(mileage.length, 1);
    const vehicle = records.find((r) => r.kind === 'vehicle')!;
    assert.deepEqual(
      { ...mileage[0]!.data, createdAt: undefined, updatedAt: undefined },
      { date: yesterday, vehicleId: vehicle.id, courierId: records.find((r) => r.kind === 'entry')!.data!.courierId, odometerStart: 42_000, odometerEnd: 42_130, businessMiles: 118, commuteMiles: 12, note: '', createdAt: undefined, updatedAt: undefined },
    );

    // Today starts where yesterday finished; "More details" stayed open.
    await page.reload();
    await ready(page);
    assert.equal(await form.getByLabel('Date').inputValue(), today);
    // The prefill arrives once the device has read its mileage log: waited for, not read once.
    const start = await form.getByLabel('Odometer start').elementHandle();
    await page.waitForFunction((input) => (input as HTMLInputElement).value === '42130', start);
    assert.equal(await form.getByLabel('Commute today (miles)').inputValue(), '12');
    await page.close();
  });
});
