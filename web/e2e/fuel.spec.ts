// [32] The fuel log in Chromium against the real binary, on a phone: a van's fills logged with
// no signal (the day and the vehicle already filled in), kept through an offline reload with
// the van's economy worked out on the device, on the server once back online, and on the
// driver's second device.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goOffline, goOnline, logIn, newPage, phone, serverHolds, short, signUp, uniqueEmail, serverAndBrowser } from './harness';

const run = serverAndBrowser();

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The device's day (the browser runs in this process's zone), read when the test starts. */
function deviceDay(): string {
  const now = new Date();
  return [now.getFullYear(), now.getMonth() + 1, now.getDate()].map((n, i) => String(n).padStart(i === 0 ? 4 : 2, '0')).join('-');
}

/** "Sat 28/11/2026", as the fuel log names a fill's day. */
const fillDay = (iso: string) => `${WEEKDAYS[new Date(`${iso}T00:00:00Z`).getUTCDay()]} ${short(iso)}`;

describe('fuel log', () => {
  it('logs fills offline on a phone, keeps them through a reload, and a second device sees them', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    assert.deepEqual(page.viewportSize(), phone.viewport);
    const email = uniqueEmail('fuel');
    await signUp(page, email, 'van-route-42', 'Sam Driver');
    await page.waitForURL('**/app/dashboard');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });

    // The van is kept under Mileage; its fuel has its own view beside it.
    await page.goto('/app/spending?view=mileage');
    await page.getByRole('button', { name: 'Add vehicle' }).click();
    const vehicleForm = page.getByRole('form', { name: 'Add a vehicle' });
    await vehicleForm.getByLabel('Name').fill('Transit');
    await vehicleForm.getByRole('button', { name: 'Add vehicle' }).click();
    await page.getByRole('region', { name: 'Vehicles' }).getByText('Transit').waitFor();

    await goOffline(context);
    await page.goto('/app/spending?view=fuel');
    await page.getByText('Claim fuel as an expense or through the mileage rate; the fill log is for economy and evidence.').waitFor({ timeout: 20_000 });
    const today = deviceDay();
    const logFill = async (litres: string, cost: string, odometer: string) => {
      await page.getByRole('button', { name: 'Log a fill' }).click();
      const form = page.getByRole('form', { name: 'Log a fill' });
      // Fast on a phone: today and the only vehicle are already chosen.
      assert.equal(await form.getByLabel('Day').inputValue(), today);
      assert.equal(await form.getByLabel('Vehicle').locator('option:checked').textContent(), 'Transit');
      await form.getByLabel('Litres').fill(litres);
      await form.getByLabel('Cost (£)').fill(cost);
      await form.getByLabel(/Odometer/).fill(odometer);
      await form.getByRole('button', { name: 'Log fill' }).click();
      await form.waitFor({ state: 'detached' });
    };
    await logFill('45.67', '68.45', '42,130');
    // 400 miles on 45.461 litres (10 UK gallons) is 40.0 mpg; £65.00 over 400 miles is 16.3p.
    await logFill('45.461', '65.00', '42,530');
    const van = page.getByRole('region', { name: 'Fuel for Transit' });
    await van.getByText('40.0 mpg · 16.3p a mile').waitFor();
    assert.equal(await van.getByRole('article', { name: `Fill on ${fillDay(today)}` }).count(), 2);

    // A reload with no signal: both fills and the figures are still there.
    await page.reload();
    await van.getByText('40.0 mpg · 16.3p a mile').waitFor({ timeout: 20_000 });
    await van.getByText('45.67 litres · £68.45').waitFor();

    // Online again: the server holds each fill once, exactly as typed.
    await goOnline(context);
    const records = await serverHolds(page, 'the two fills', (all) => all.filter((r) => r.kind === 'fuelFill').length >= 2);
    const vehicle = records.find((r) => r.kind === 'vehicle');
    const fills = records.filter((r) => r.kind === 'fuelFill').map((r) => r.data!);
    assert.deepEqual(
      fills.map((f) => [f.date, f.vehicleId, f.unit, f.quantity, f.cost, f.odometer, f.full]).sort(),
      [
        [today, vehicle?.id, 'litres', 45_461, 6_500, 42_530, true],
        [today, vehicle?.id, 'litres', 45_670, 6_845, 42_130, true],
      ],
    );
    assert.equal(records.filter((r) => r.kind === 'expense').length, 0, 'a fill is not an expense');

    // The driver's other device shows the fills and the same economy.
    const laptop = await newPage(run.browser, run.server);
    await logIn(laptop.page, email, 'van-route-42');
    await laptop.page.waitForURL('**/app/dashboard');
    await laptop.page.goto('/app/spending?view=fuel');
    const there = laptop.page.getByRole('region', { name: 'Fuel for Transit' });
    await there.getByText('40.0 mpg · 16.3p a mile').waitFor({ timeout: 20_000 });
    await there.getByText('45.67 litres · £68.45').waitFor();
    await laptop.context.close();
    await context.close();
  });
});
