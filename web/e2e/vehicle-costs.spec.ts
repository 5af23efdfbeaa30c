// [25] Vehicle costs claimed once, and a tax headline that adds up, in Chromium against the real
// binary. A DPD driver hires the van from the courier at £195 a week and keeps HMRC mileage at
// 45p: fuel bought before the van was added, van hire the courier deducts, business miles. The
// tax year asks about the fuel that names no vehicle, links it in one step, and then counts only
// the mileage claim: the hire and the fuel are shown as covered by the rate, the records CSV
// leaves them out and adds up to the profit. A second driver, whose costs are under the £1,000
// trading allowance, sees the allowance in the headline, so turnover less what is shown is the
// profit. Every figure is worked out here from what the test typed, not by the app's code.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { logMiles, newPage, openCourier, openNav, signUp, uniqueEmail, serverAndBrowser, openDayForm, saveDayForm, deviceDay } from './harness';

const run = serverAndBrowser();

const DAY_MS = 86_400_000;
const addDays = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const pounds = (pence: number) => `£${(pence / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const minus = (pence: number) => `−${pounds(pence)}`;
/** "£1,234.56" or "−£1,234.56" back to pence. */
const pence = (text: string) => Math.round(Number(text.replace(/[£,]/g, '').replace('−', '-')) * 100);

/** The tax year holding `today`: from the 6 April on or before it. */
function yearStartOf(today: string): string {
  return today.slice(5) >= '04-06' ? `${today.slice(0, 4)}-04-06` : `${Number(today.slice(0, 4)) - 1}-04-06`;
}

/** The spec's default pay: 110 stops at £1.98, the rest at £1.48, plus the extra. */
const dayPay = (stops: number, extraPence: number) => Math.min(stops, 110) * 198 + Math.max(0, stops - 110) * 148 + extraPence;

async function logDay(page: Page, date: string, stops: number, extraPounds: string) {
  const form = await openDayForm(page);
  await form.getByLabel('Date').fill(date);
  await form.getByLabel('Stops', { exact: true }).fill(String(stops));
  await form.getByLabel('Extra (£)').fill(extraPounds);
  await saveDayForm(page, form, date);
}

/** Adds an expense with the spending page's form (opened from its button) and waits for it to close. */
async function addExpense(page: Page, fields: { date: string; amount: string; category: string; note: string; vehicle?: string }) {
  await openNav(page, 'Spending');
  await page.getByRole('button', { name: 'Add expense' }).click();
  const form = page.getByRole('form', { name: 'Add an expense' });
  await form.getByLabel('Paid on').fill(fields.date);
  await form.getByLabel('Amount (£)').fill(fields.amount);
  await form.getByLabel('Category').selectOption(fields.category);
  if (fields.vehicle) await form.getByLabel('Vehicle', { exact: true }).selectOption({ label: fields.vehicle });
  await form.getByLabel('Note').fill(fields.note);
  await form.getByRole('button', { name: 'Add expense' }).click();
  await form.waitFor({ state: 'hidden' });
}

/** A figure of the tax year's headline: its term, then its value. */
async function figure(page: Page, label: string): Promise<string> {
  const value = page.locator('section[aria-labelledby="tax-overview"] dl > div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');
  return (await value.textContent())?.trim() ?? '';
}

/** The headline's terms, in order. */
async function headlineTerms(page: Page): Promise<string[]> {
  return (await page.locator('dl[aria-label="The year in figures"] dt').allTextContents()).map((t) => t.trim());
}

describe('vehicle costs claimed once', () => {
  it('covers a hired van’s £195 weekly hire and its fuel by the 45p rate: only the mileage claim is allowable', async () => {
    const { page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('hired-van'), 'van-route-42', 'Dee Driver');
    await page.waitForURL('**/app/dashboard');

    const today = deviceDay();
    const yearStart = yearStartOf(today);
    // Fuel bought before the van was in the app: no vehicle to name yet.
    await addExpense(page, { date: today, amount: '141.99', category: 'fuel', note: 'Diesel before the van' });

    // The hired van, on HMRC's flat rate, and its business miles: 2,500 at 45p (£1,125, more
    // than the £1,000 trading allowance, so the costs are what is claimed).
    await page.getByRole('navigation', { name: 'Spending views' }).getByRole('link', { name: 'Mileage' }).click();
    await page.getByRole('button', { name: 'Add vehicle' }).click();
    const vehicleForm = page.getByRole('form', { name: 'Add a vehicle' });
    await vehicleForm.getByLabel('Name').fill('Hired van');
    await vehicleForm.getByLabel('Type').selectOption('carVan');
    await vehicleForm.getByLabel('How its costs are claimed').selectOption('flatRate');
    await vehicleForm.getByRole('button', { name: 'Add vehicle' }).click();
    await page.getByRole('region', { name: 'Vehicles' }).getByText('Hired van').first().waitFor();
    // A day's log takes at most 2,000 miles: two days (the same day twice early in a tax year).
    await logMiles(page, addDays(today, -1) >= yearStart ? addDays(today, -1) : today, 1_250);
    await logMiles(page, today, 1_250);
    const mileageClaim = 2_500 * 45;

    // Van hire the courier takes off, £195 every week: the form asks what it is for, then which vehicle.
    await openNav(page, 'Settings');
    const courier = await openCourier(page, 'My courier');
    await courier.getByRole('button', { name: 'Add deduction' }).click();
    await courier.getByLabel('What it is for').selectOption('vehicleHire');
    await courier.getByLabel('Name on the statement').fill('Van hire');
    await courier.getByLabel('Amount (£)').fill('195');
    await courier.getByLabel('Repeats').selectOption('weekly');
    const firstCharge = addDays(today, -7) >= yearStart ? addDays(today, -7) : today;
    await courier.getByLabel('First charge').fill(firstCharge);
    await courier.getByRole('button', { name: 'Add deduction' }).last().click();
    await courier.getByText('Please choose the vehicle this is for, or No vehicle').waitFor();
    await courier.getByLabel('Vehicle', { exact: true }).selectOption({ label: 'Hired van' });
    await courier.getByRole('button', { name: 'Add deduction' }).last().click();
    await courier.getByText('Vehicle hire or lease · Hired van').waitFor();
    const hire = (firstCharge === today ? 1 : 2) * 19_500;

    // A day's pay.
    await openNav(page, 'Home');
    await logDay(page, today, 128, '2400.00');
    const turnover = dayPay(128, 240_000);

    // The tax year: the fuel names no vehicle while the van is on the flat rate, so it is
    // counted in full and the year says so, with the amount.
    await openNav(page, 'Tax');
    const warning = page.getByRole('note', { name: 'Vehicle costs with no vehicle' });
    await warning.getByText(`${pounds(14_199)} of vehicle costs name no vehicle`).waitFor();
    assert.equal(await figure(page, 'Expenses'), minus(14_199));
    await warning.getByRole('button', { name: 'Link them to Hired van' }).click();
    await warning.waitFor({ state: 'detached' });

    // Now only the mileage claim is allowable.
    await page
      .locator('dl[aria-label="The year in figures"] > div')
      .filter({ has: page.locator('dt', { hasText: /^Expenses$/ }) })
      .locator('dd', { hasText: /^£0\.00$/ })
      .waitFor();
    assert.deepEqual(await headlineTerms(page), ['Turnover', 'Expenses', 'Mileage claim', 'Profit']);
    assert.equal(await figure(page, 'Turnover'), pounds(turnover));
    assert.equal(await figure(page, 'Expenses'), pounds(0));
    assert.equal(await figure(page, 'Mileage claim'), minus(mileageClaim));
    assert.equal(await figure(page, 'Profit'), pounds(turnover - mileageClaim));
    // The covered costs are shown as covered, each in its SA103 box, counted at nothing.
    const costs = page.getByRole('list', { name: 'Expenses by category' });
    const hireRow = costs.getByRole('listitem').filter({ hasText: 'Vehicle hire or lease' });
    await hireRow.getByText(`SA103 box 20 · ${pounds(hire)} taken by couriers · ${pounds(hire)} covered by the mileage rate, not counted`).waitFor();
    assert.equal((await hireRow.locator('span').last().textContent())?.trim(), pounds(0));
    await costs.getByRole('listitem').filter({ hasText: 'Fuel' }).getByText(`${pounds(14_199)} covered by the mileage rate, not counted`).waitFor();
    // Both methods side by side while the van's method is open: 45p a mile against the costs.
    // No commuting logged: 100% business use, so actual costs would claim the hire and the fuel.
    const methods = page.getByRole('region', { name: 'Hired van: both methods' });
    await methods.getByText('Flat rate', { exact: true }).waitFor();
    const compared = (await methods.textContent()) ?? '';
    assert.ok(compared.includes(pounds(mileageClaim)) && compared.includes(pounds(hire + 14_199)), compared);

    // The records CSV: the day and the mileage claim, no hire and no fuel; it sums to the profit.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Records CSV', exact: true }).click()]);
    const rows = (await readFile((await download.path())!, 'utf8')).slice(1).trim().split('\r\n').slice(1);
    assert.equal(rows.length, 3, rows.join('\n')); // the day and the two days' mileage claims
    assert.ok(rows.every((row) => !/Van hire|Diesel/.test(row)), rows.join('\n'));
    const amounts = rows.map((row) => Math.round(Number(row.split(',').at(-4)) * 100));
    assert.equal(
      amounts.reduce((a, b) => a + b, 0),
      turnover - mileageClaim,
    );
  });

  it('shows the trading allowance in the headline when it wins, so turnover less what is shown is the profit', async () => {
    const { page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('allowance'), 'van-route-42');
    await page.waitForURL('**/app/dashboard');
    const today = deviceDay();
    // £2,648.61 of turnover: 128 stops (£244.44) and £2,404.17 extra.
    await logDay(page, today, 128, '2404.17');
    const turnover = dayPay(128, 240_417);
    assert.equal(turnover, 264_861);
    await addExpense(page, { date: today, amount: '467.89', category: 'equipment', note: 'Sack truck and scanner case' });

    await openNav(page, 'Tax');
    await page.locator('dl[aria-label="The year in figures"] dt', { hasText: 'Trading allowance' }).waitFor();
    // Expenses of £467.89 are less than the £1,000 allowance: the headline claims the allowance.
    assert.deepEqual(await headlineTerms(page), ['Turnover', 'Trading allowance', 'Profit']);
    const [shownTurnover, allowance, profit] = await Promise.all(['Turnover', 'Trading allowance', 'Profit'].map((label) => figure(page, label)));
    assert.deepEqual([shownTurnover, allowance, profit], [pounds(264_861), minus(100_000), pounds(164_861)]);
    assert.equal(pence(shownTurnover!) + pence(allowance!), pence(profit!), 'the headline adds up on the screen');
    await page.getByText(`The trading allowance of ${pounds(100_000)} is claimed instead of your ${pounds(46_789)} of expenses and ${pounds(0)} mileage claim`).waitFor();
    // Income Tax and Class 4 on that profit, beside it: under the allowance, nothing.
    assert.equal(await figure(page, 'Income Tax'), pounds(0));
  });
});
