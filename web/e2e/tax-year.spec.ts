// [13] The tax year in Chromium against the real binary: a driver logs days, expenses (a
// monthly one, and fuel for a flat-rate van that the mileage rate already covers) and mileage,
// opens the tax year, and its turnover, expenses, mileage claim, profit, Income Tax and Class 4
// are the figures this test works out on its own from what it typed; Scotland's bands change
// the Income Tax as worked out here; both CSV files download and their rows are checked.
//
// The figures here are computed from HMRC's published 2026-27 rates written out below, not from
// the app's code: a year missing from the app's data uses its newest year (2026-27), so they
// hold in any later year too.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { courierItem, couriersSection, logMiles, newPage, openNav, signUp, uniqueEmail, serverAndBrowser, openDayForm, saveDayForm } from './harness';

const run = serverAndBrowser();

// ---- The test's own arithmetic (GOV.UK rates for 2026-27) ----

/** The spec's default pay: 110 stops at £1.98, the rest at £1.48. */
const dayPay = (stops: number, extraPence: number) => Math.min(stops, 110) * 198 + Math.max(0, stops - 110) * 148 + extraPence;

/** Income Tax on a profit under £100,000 (full Personal Allowance), rounded down to the penny. */
function incomeTaxOf(profit: number, bands: [upTo: number, percent: number][]): number {
  const taxable = Math.max(0, profit - 1_257_000);
  let exact = 0;
  let below = 0;
  for (const [upTo, percent] of bands) {
    const top = Math.min(taxable, upTo);
    if (top > below) exact += (top - below) * percent;
    below = Math.max(below, upTo);
  }
  return Math.floor(exact / 100);
}
const UK_BANDS: [number, number][] = [
  [3_770_000, 20],
  [12_514_000, 40],
];
const SCOTTISH_BANDS: [number, number][] = [
  [396_700, 19],
  [1_695_600, 20],
  [3_109_200, 21],
  [6_243_000, 42],
  [12_514_000, 45],
];
/** Class 4: 6% between £12,570 and £50,270. */
const class4Of = (profit: number) => Math.floor((Math.max(0, Math.min(profit, 5_027_000) - 1_257_000) * 6) / 100);

const pounds = (pence: number) => `£${(pence / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const csvPounds = (pence: number) => (pence / 100).toFixed(2);
const ymd = (date: Date) => [date.getFullYear(), date.getMonth() + 1, date.getDate()].map((n, i) => String(n).padStart(i ? 2 : 4, '0')).join('-');
const addDays = (day: string, days: number) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return ymd(new Date(y, m - 1, d + days));
};
const dmy = (day: string) => day.split('-').reverse().join('/');

/** A small RFC 4180 reader of the file as downloaded (BOM, quoted fields, CRLF). */
function readCsv(text: string): string[][] {
  assert.equal(text.charCodeAt(0), 0xfeff, 'the file starts with a UTF-8 BOM');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 1; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  return rows;
}

// ---- Driving the app as a driver would ----

async function logDay(page: Page, date: string, courier: string, stops: number, extraPounds: string, notes: string) {
  const form = await openDayForm(page);
  await form.getByLabel('Courier').selectOption({ label: courier });
  await form.getByLabel('Date').fill(date);
  await form.getByLabel('Stops', { exact: true }).fill(String(stops));
  await form.getByLabel('Extra (£)').fill(extraPounds);
  await form.getByLabel('Notes').fill(notes);
  await saveDayForm(page, form, date);
}

/**
 * Adds an expense with the spending page's form and waits until the form has closed. Like
 * logMiles: the form must have settled, opened by the dashboard's "Add expense" or closed by
 * the last save (which drops ?add=1 in a navigation of its own). Once it is closed, the only
 * "Add expense" button is the one that opens it, not the form's own submit.
 */
async function addExpense(page: Page, fields: { date: string; amount: string; category: string; note: string; monthly?: boolean; vehicle?: string }) {
  const form = page.getByRole('form', { name: 'Add an expense' });
  if (!(await form.isVisible())) await page.getByRole('button', { name: 'Add expense' }).click();
  if (fields.monthly) await form.getByLabel('Repeats').selectOption('monthly');
  await form.getByLabel(fields.monthly ? 'First payment' : 'Paid on').fill(fields.date);
  await form.getByLabel('Amount (£)').fill(fields.amount);
  await form.getByLabel('Category').selectOption(fields.category);
  if (fields.vehicle) await form.getByLabel('Vehicle', { exact: true }).selectOption({ label: fields.vehicle });
  await form.getByLabel('Note').fill(fields.note);
  await form.getByRole('button', { name: 'Add expense' }).click();
  await page.getByRole('region', { name: 'Expenses' }).getByText(fields.note).first().waitFor();
  await form.waitFor({ state: 'hidden' });
}

/** A figure of the tax year's overview (its <dl>s: the term, then its value). */
async function figure(page: Page, label: string): Promise<string> {
  const value = page.locator('section[aria-labelledby="tax-overview"] dl > div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');
  return (await value.textContent())?.trim() ?? '';
}

describe('the tax year', () => {
  it('adds up days, expenses and mileage into figures worked out here, in both regions, and exports both CSVs', async () => {
    const { page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('taxyear'));
    await page.waitForURL('**/app/dashboard');

    // The current tax year: 6 April to 5 April.
    const today = ymd(new Date());
    const startYear = today.slice(5) >= '04-06' ? Number(today.slice(0, 4)) : Number(today.slice(0, 4)) - 1;
    const yearLabel = `${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}`;
    const yearStart = `${startYear}-04-06`;
    const second = addDays(yearStart, 1) <= today ? addDays(yearStart, 1) : today;
    const days = [...new Set([yearStart, second, today])];
    const typed = [
      { courier: 'My courier', stops: 100, extra: '8000.00' },
      { courier: 'DPD', stops: 130, extra: '9500.50' },
      { courier: 'My courier', stops: 40, extra: '6000.00' },
    ].slice(0, days.length);

    // A second courier (its first rates are the default tiers, like the first one's).
    await openNav(page, 'Settings');
    await couriersSection(page).getByRole('button', { name: 'Add courier' }).click();
    await page.getByLabel('Name').fill('DPD');
    await page.getByRole('radio', { name: 'Green' }).check();
    await page.getByLabel('Pay period').selectOption('fourFourFive');
    await page.getByLabel('A cycle starts on').fill(yearStart);
    await page.getByLabel('Weeks in arrears').fill('1');
    await couriersSection(page).getByRole('button', { name: 'Add courier' }).click();
    await courierItem(page, 'DPD').waitFor();

    // Days, on the dashboard.
    await openNav(page, 'Home');
    for (const [index, day] of days.entries()) await logDay(page, day, typed[index]!.courier, typed[index]!.stops, typed[index]!.extra, `Round ${index + 1}`);
    const dayTotals = typed.map((t) => dayPay(t.stops, Math.round(Number(t.extra) * 100)));
    const turnover = dayTotals.reduce((a, b) => a + b, 0);

    // A flat-rate van and its miles.
    await page.getByRole('link', { name: 'Log mileage' }).click();
    const vehicleForm = page.getByRole('form', { name: 'Add a vehicle' });
    await vehicleForm.getByLabel('Name').fill('Transit');
    await vehicleForm.getByLabel('Type').selectOption('carVan');
    await vehicleForm.getByLabel('How its costs are claimed').selectOption('flatRate');
    await vehicleForm.getByRole('button', { name: 'Add vehicle' }).click();
    await page.getByRole('region', { name: 'Vehicles' }).getByText('Transit').first().waitFor();
    const miles = [1_500, 600];
    await logMiles(page, yearStart, miles[0]!);
    await logMiles(page, today, miles[1]!);
    const claims = miles.map((m) => m * 45);
    const mileageClaim = claims.reduce((a, b) => a + b, 0);

    // Expenses: a monthly phone bill from 6 April, a sack truck, and diesel for the flat-rate van.
    await openNav(page, 'Home');
    await page.getByRole('link', { name: 'Add expense' }).click();
    // The link opens the form (?add=1); until the spending page is shown there is no form to see.
    await page.getByRole('form', { name: 'Add an expense' }).waitFor();
    await addExpense(page, { date: yearStart, amount: '25.99', category: 'phone', note: 'Phone contract', monthly: true });
    await addExpense(page, { date: today, amount: '149.00', category: 'equipment', note: 'Sack truck' });
    await addExpense(page, { date: today, amount: '72.40', category: 'fuel', note: 'Diesel for the Transit', vehicle: 'Transit' });
    // The phone bill falls on the 6th of each month from 6 April, up to today.
    const phoneDays: string[] = [];
    for (let month = 0; ; month += 1) {
      const date = ymd(new Date(startYear, 3 + month, 6));
      if (date > today) break;
      phoneDays.push(date);
    }
    const expenses = phoneDays.length * 2_599 + 14_900; // the diesel is covered by the mileage rate
    const profit = turnover - expenses - mileageClaim;
    // Over £1,000 of costs: claiming them beats the trading allowance, so the profit is turnover less costs.
    assert.ok(expenses + mileageClaim > 100_000);

    // The tax year.
    await openNav(page, 'Tax');
    await page.getByRole('heading', { name: `Set aside for ${yearLabel.replace('-', '–')}` }).waitFor();
    await page.getByText('This is an estimate to help you plan, not tax advice.').waitFor();
    // Every record is on this device already; wait for the last one to be counted.
    await page.locator('dl[aria-label="The year in figures"] dd', { hasText: `−${pounds(expenses)}` }).waitFor();
    assert.equal(await figure(page, 'Turnover'), pounds(turnover));
    assert.equal(await figure(page, 'Expenses'), `−${pounds(expenses)}`);
    assert.equal(await figure(page, 'Mileage claim'), `−${pounds(mileageClaim)}`);
    assert.equal(await figure(page, 'Profit'), pounds(profit));
    assert.equal(await figure(page, 'Income Tax'), pounds(incomeTaxOf(profit, UK_BANDS)));
    assert.equal(await figure(page, 'Class 4 NI'), pounds(class4Of(profit)));
    await page.getByText(/covered by the mileage rate, not counted/).filter({ hasText: pounds(7_240) }).waitFor();
    // Turnover by courier.
    const byCourier = page.getByRole('list', { name: 'Turnover by courier' });
    for (const courier of new Set(typed.map((t) => t.courier))) {
      const pence = typed.reduce((sum, t, i) => sum + (t.courier === courier ? dayTotals[i]! : 0), 0);
      await byCourier.getByRole('listitem').filter({ hasText: courier }).filter({ hasText: pounds(pence) }).waitFor();
    }

    // Scotland's bands.
    await page.getByRole('button', { name: 'Scotland' }).click();
    // Saved on the device first: the figures follow once the button shows it chosen.
    await page.getByRole('button', { name: 'Scotland', pressed: true }).waitFor();
    const scottish = incomeTaxOf(profit, SCOTTISH_BANDS);
    await page.locator('dl[aria-label="The tax on it"] dd', { hasText: pounds(scottish) }).waitFor();
    assert.equal(await figure(page, 'Income Tax'), pounds(scottish));
    assert.notEqual(scottish, incomeTaxOf(profit, UK_BANDS));
    assert.equal(await figure(page, 'Class 4 NI'), pounds(class4Of(profit)));

    // The records CSV: one row per day, expense occurrence and mileage claim; no diesel.
    const [records] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Records CSV', exact: true }).click()]);
    assert.equal(records.suggestedFilename(), `delivery-tracker-tax-year-${yearLabel}-records.csv`);
    const [header, ...rows] = readCsv(await readFile((await records.path())!, 'utf8'));
    assert.deepEqual(header, ['Date', 'Description', 'Category', 'Amount', 'Type', 'SA103 box', 'MTD field']);
    const expected = [
      ...days.map((day, index) => ({ day, order: 0, row: [dmy(day), `${typed[index]!.courier}: ${typed[index]!.stops} stops`, 'Turnover', csvPounds(dayTotals[index]!), 'Income', '15', 'turnover'] })),
      ...phoneDays.map((day) => ({ day, order: 1, row: [dmy(day), 'Phone contract', 'Phone and data', '-25.99', 'Expense', '23', 'adminCosts'] })),
      { day: today, order: 1, row: [dmy(today), 'Sack truck', 'Equipment (scanner, trolley, sat nav)', '-149.00', 'Expense', '30', 'otherExpenses'] },
      { day: yearStart, order: 2, row: [dmy(yearStart), `Transit: ${miles[0]!.toLocaleString('en-GB')} business miles, ${miles[0]!.toLocaleString('en-GB')} miles at 45p`, 'Mileage (simplified expenses)', csvPounds(-claims[0]!), 'Mileage', '20', 'carVanTravelExpenses'] },
      { day: today, order: 2, row: [dmy(today), `Transit: ${miles[1]!.toLocaleString('en-GB')} business miles, ${miles[1]!.toLocaleString('en-GB')} miles at 45p`, 'Mileage (simplified expenses)', csvPounds(-claims[1]!), 'Mileage', '20', 'carVanTravelExpenses'] },
    ];
    const sortedRows = (list: string[][]) => [...list].sort((a, b) => a.join('|').localeCompare(b.join('|')));
    assert.deepEqual(sortedRows(rows), sortedRows(expected.map((e) => e.row)));
    assert.equal(rows.filter((row) => row[1]!.includes('Diesel')).length, 0);
    assert.equal(
      rows.reduce((sum, row) => sum + Math.round(Number(row[3]) * 100), 0),
      profit,
    );

    // The quarterly CSV: four cumulative rows; the quarter holding today has the year so far.
    const [quarterly] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Quarterly CSV' }).click()]);
    assert.equal(quarterly.suggestedFilename(), `delivery-tracker-tax-year-${yearLabel}-quarters.csv`);
    const [qHeader, ...quarters] = readCsv(await readFile((await quarterly.path())!, 'utf8'));
    assert.equal(qHeader!.length, 16);
    assert.deepEqual(quarters.map((q) => q[0]), [1, 2, 3, 4].map((n) => `Q${n} ${yearLabel}`));
    const ends = [`${startYear}-07-05`, `${startYear}-10-05`, `${startYear + 1}-01-05`, `${startYear + 1}-04-05`];
    const dues = [`${startYear}-08-07`, `${startYear}-11-07`, `${startYear + 1}-02-07`, `${startYear + 1}-05-07`];
    for (const [index, quarter] of quarters.entries()) {
      const end = ends[index]!;
      const upTo = <T extends { day: string }>(list: T[]) => list.filter((item) => item.day <= end);
      const qTurnover = upTo(days.map((day, i) => ({ day, pence: dayTotals[i]! }))).reduce((s, x) => s + x.pence, 0);
      const qMiles = upTo([{ day: yearStart, pence: claims[0]! }, { day: today, pence: claims[1]! }]).reduce((s, x) => s + x.pence, 0);
      const qAdmin = upTo(phoneDays.map((day) => ({ day }))).length * 2_599;
      const qOther = today <= end ? 14_900 : 0;
      assert.equal(quarter[3], dmy(dues[index]!));
      assert.equal(quarter[5], csvPounds(qTurnover), `turnover of Q${index + 1}`);
      assert.equal(quarter[6], csvPounds(qMiles), `car, van and travel of Q${index + 1}`);
      assert.equal(quarter[9], csvPounds(qAdmin), `admin costs of Q${index + 1}`);
      assert.equal(quarter[12], csvPounds(qOther), `other expenses of Q${index + 1}`);
      assert.equal(quarter[13], csvPounds(qMiles));
      assert.equal(quarter[14], csvPounds(qMiles + qAdmin + qOther));
      assert.equal(quarter[15], csvPounds(qTurnover - qMiles - qAdmin - qOther));
    }
  });
});
