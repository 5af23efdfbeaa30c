// [13] The HMRC mileage log in Chromium against the real binary: a van on the flat rate, a tax
// year's miles logged up to and across the 10,000-mile break (the crossing day logged with no
// signal, still there after an offline reload), every record on the server exactly once; and a
// reminder of a missed working day that can be hidden for 7 days.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addEntry, goOffline, goOnline, logMiles, newPage, serverHolds, signUp, uniqueEmail, serverAndBrowser } from './harness';

const run = serverAndBrowser();

const DAY_MS = 86_400_000;
const addDays = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const utc = (iso: string) => new Date(`${iso}T00:00:00Z`);
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** "Mon 6 Apr", as the log names a day. */
const logDay = (iso: string) => `${WEEKDAYS[utc(iso).getUTCDay()]} ${utc(iso).getUTCDate()} ${MONTHS[utc(iso).getUTCMonth()]}`;
const pounds = (pence: number) => `£${(pence / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/**
 * The device's day (the browser runs in this process's zone), read when a test starts rather
 * than when the file loads, so a run that passes midnight does not hand a test yesterday.
 */
function deviceDay(): string {
  const now = new Date();
  return [now.getFullYear(), now.getMonth() + 1, now.getDate()].map((n, i) => String(n).padStart(i === 0 ? 4 : 2, '0')).join('-');
}

/** The tax year holding `today`: it starts on the 6 April on or before it. */
function taxYearOf(today: string): { yearStart: string; yearLabel: string } {
  const yearStart = today.slice(5) >= '04-06' ? `${today.slice(0, 4)}-04-06` : `${Number(today.slice(0, 4)) - 1}-04-06`;
  return { yearStart, yearLabel: `${yearStart.slice(0, 4)}-${String((Number(yearStart.slice(0, 4)) + 1) % 100).padStart(2, '0')}` };
}

/** HMRC's car and van rate worked out here, not by the app: 45p for the first 10,000 business miles of the year, then 25p. */
function flatRate(days: number[]): { perDay: { first: number; after: number; pence: number }[]; total: number } {
  let before = 0;
  const perDay = days.map((miles) => {
    const first = Math.max(0, Math.min(miles, 10_000 - before));
    before += miles;
    return { first, after: miles - first, pence: first * 45 + (miles - first) * 25 };
  });
  return { perDay, total: perDay.reduce((sum, day) => sum + day.pence, 0) };
}

describe('mileage log', () => {
  it('logs a van’s miles across the 10,000-mile break, one day offline, and the server holds each record once', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('mileage'), 'van-route-42', 'Sam Driver');
    await page.waitForURL('**/app/dashboard');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });

    // The dashboard's Log mileage: with no vehicle yet, the van comes first.
    await page.getByRole('link', { name: 'Log mileage' }).click();
    await page.waitForURL('**/app/spending?view=mileage&add=1');
    const vehicleForm = page.getByRole('form', { name: 'Add a vehicle' });
    await vehicleForm.getByLabel('Name').fill('Transit');
    await vehicleForm.getByLabel('Type').selectOption('carVan');
    await vehicleForm.getByLabel('How its costs are claimed').selectOption('flatRate');
    await vehicleForm.getByRole('button', { name: 'Add vehicle' }).click();
    await page.getByRole('region', { name: 'Vehicles' }).getByText('Flat rate: 45p a mile for the first 10,000 business miles, then 25p').waitFor();

    const { yearStart, yearLabel } = taxYearOf(deviceDay());
    // At most 2,000 miles a record: 4 × 2,000 + 1,990 leaves 10 at 45p for the day of 30.
    const miles = [2000, 2000, 2000, 2000, 1990, 30];
    const days = miles.map((_, i) => addDays(yearStart, i));
    const expected = flatRate(miles);
    const logOne = async (index: number) => {
      await logMiles(page, days[index]!, miles[index]!, async (form) => {
        assert.equal(await form.getByLabel('Vehicle').inputValue().then((id) => id.length > 0), true);
      });
      await page.getByRole('article', { name: `Mileage on ${logDay(days[index]!)}` }).waitFor();
    };
    for (let i = 0; i < 5; i += 1) await logOne(i);
    await page.getByRole('article', { name: `Mileage on ${logDay(days[4]!)}` }).getByText(`1,990 miles at 45p = ${pounds(expected.perDay[4]!.pence)}`).waitFor();

    // The day across the break is logged with no signal, and survives an offline reload.
    await goOffline(context);
    await logOne(5);
    const crossing = expected.perDay[5]!;
    assert.deepEqual([crossing.first, crossing.after], [10, 20]);
    const crossingText = `${crossing.first} miles at 45p + ${crossing.after} at 25p = ${pounds(crossing.pence)}`;
    await page.getByRole('article', { name: `Mileage on ${logDay(days[5]!)}` }).getByText(crossingText).waitFor();
    await page.reload();
    await page.getByRole('article', { name: `Mileage on ${logDay(days[5]!)}` }).getByText(crossingText).waitFor({ timeout: 20_000 });
    const van = page.getByRole('region', { name: `Transit in ${yearLabel}` });
    assert.equal(pounds(expected.total), '£4,505.00');
    await van.getByText(pounds(expected.total)).waitFor();
    await van.getByText('Past the first 10,000 miles: 20 miles at 25p so far').waitFor();

    // Online again: the server holds the van and each of the six days exactly once.
    await goOnline(context);
    const records = await serverHolds(page, 'the van and six days of mileage', (all) => all.filter((r) => r.kind === 'mileage').length >= 6);
    const vehicles = records.filter((r) => r.kind === 'vehicle');
    assert.equal(vehicles.length, 1);
    assert.deepEqual(vehicles[0]!.data, { ...vehicles[0]!.data, name: 'Transit', type: 'carVan', method: 'flatRate' });
    const mileage = records.filter((r) => r.kind === 'mileage').map((r) => r.data!);
    assert.equal(mileage.length, 6);
    assert.deepEqual(
      mileage.map((m) => [m.date, m.businessMiles, m.commuteMiles, m.odometerStart, m.odometerEnd, m.vehicleId]).sort(),
      days.map((date, i) => [date, miles[i], 0, null, null, vehicles[0]!.id]).sort(),
    );
    await context.close();
  });

  it('reminds of a usual working day left unlogged, and hides it for 7 days', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('reminders'));
    await page.waitForURL('**/app/dashboard');
    // The same weekday three weeks running, then not yesterday's: a usual day missed.
    const today = deviceDay();
    for (const back of [22, 15, 8]) await addEntry(page, addDays(today, -back), 100, 'Round');
    const missed = addDays(today, -1);
    const text = `No day logged for ${WEEKDAYS[utc(missed).getUTCDay()]} ${missed.slice(8, 10)}/${missed.slice(5, 7)}`;
    const reminders = page.getByRole('region', { name: 'Reminders' });
    await reminders.getByText(text).waitFor();
    await reminders.getByRole('button', { name: `Hide for 7 days: ${text}` }).click();
    await reminders.waitFor({ state: 'detached' });
    // Kept on the device: still hidden after a reload.
    await page.reload();
    await page.getByRole('region', { name: 'Recent Entries' }).getByText('Round').first().waitFor();
    assert.equal(await page.getByRole('region', { name: 'Reminders' }).count(), 0);
    await context.close();
  });
});
