// [12] Statement checks per pay period in Chromium against the real binary: days logged with
// the dashboard form, the courier on a 4-4-5 pay period with a weekly deduction, a statement
// imported from CSV, offline, that is short by one day and takes the deduction once more than
// the log; the check names both, is marked disputed with a note, and reaches a second device.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addEntry, goOffline, goOnline, logIn, newPage, openCourier, openNav, signUp, uniqueEmail, serverAndBrowser, openDayForm, saveDayForm } from './harness';

const run = serverAndBrowser();

const day = (base: Date, offset: number) => new Date(base.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
const short = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
const weekday = (iso: string) => ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][new Date(`${iso}T00:00:00Z`).getUTCDay()];

describe('statement checks', () => {
  it('names the missing day and the deduction taken twice in a 4-4-5 period, and keeps the dispute', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    const email = uniqueEmail('statements');
    await signUp(page, email, 'van-route-42', 'Sam Driver');
    await page.waitForURL('**/app/dashboard');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });

    // A 4-4-5 cycle that started 10 days ago: its first period (28 days) holds today.
    const now = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    const anchor = day(now, -10);
    const periodEnd = day(now, 17);
    const [first, second, third] = [day(now, -9), day(now, -8), day(now, -7)];
    // Default tiers: 110 stops at £1.98, then £1.48.
    await addEntry(page, first, 100, 'Depot A'); // £198.00
    await addEntry(page, second, 120, 'Depot A'); // £232.60
    await addEntry(page, third, 90, 'Depot A'); // £178.20

    // In the settings: the courier moves to a 4-4-5 pay period, paid 2 weeks in arrears, and
    // £15 device rent comes off every week from the first working day (4 charges in the period).
    await openNav(page, 'Settings');
    const mine = await openCourier(page, 'My courier');
    await mine.getByRole('button', { name: 'Edit My courier' }).click();
    await mine.getByLabel('Pay period').selectOption('fourFourFive');
    await mine.getByLabel('A cycle starts on').fill(anchor);
    await mine.getByLabel('Weeks in arrears').fill('2');
    await mine.getByRole('button', { name: 'Save courier' }).click();
    await mine.getByText(`4-4-5 from ${short(anchor)}, paid 2 weeks in arrears`).waitFor();
    await mine.getByRole('button', { name: 'Add deduction' }).click();
    await mine.getByLabel('What it is for').selectOption('equipment');
    await mine.getByLabel('Name on the statement').fill('Device rent');
    await mine.getByLabel('Amount (£)').fill('15');
    await mine.getByLabel('Repeats').selectOption('weekly');
    await mine.getByLabel('First charge').fill(first);
    await mine.getByRole('button', { name: 'Add deduction' }).last().click();
    await mine.getByText('Device rent').waitFor();

    // The statement is checked with no signal.
    await goOffline(context);
    await page.goto('/app/history?view=statements');
    await page.getByText(`My courier: 4-4-5 from ${short(anchor)}, paid 2 weeks in arrears.`).waitFor({ timeout: 20_000 });
    const period = page.getByRole('listitem', { name: `Pay period ${short(anchor)} – ${short(periodEnd)}` });
    await period.getByText('3 days, 310 stops · £608.80 gross − £60.00 = £548.80 net', { exact: false }).waitFor();
    await period.getByText('No statement checked yet').waitFor();

    // The statement leaves out the second day (£232.60) and takes the rent five times (£75.00).
    await period.getByRole('button', { name: 'Check statement' }).click();
    const form = period.getByRole('form', { name: `Check statement ${short(anchor)} – ${short(periodEnd)}` });
    const csv = 'Period,Total paid (£),Stops,Deductions (£)\r\nP1,"£301.20",190,-75.00\r\n';
    await form.getByLabel('Statement CSV file').setInputFiles({ name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await form.getByText('Read 1 row from statement.csv. Check the figures, then save.').waitFor();
    assert.equal(await form.getByLabel('Net paid, after deductions (£)').inputValue(), '301.20');
    assert.equal(await form.getByLabel('Deductions taken (£) (optional)').inputValue(), '75.00');
    await form.getByLabel('Your status').selectOption('disputed');
    await form.getByLabel('Note (optional)').fill('One day missing, rent taken twice: emailed the depot');
    await form.getByRole('button', { name: 'Save check' }).click();

    const dayFinding = `${weekday(second)} ${short(second)} (120 stops, £232.60) is missing from the statement.`;
    const rentFinding = `Device rent on ${short(first)} (£15.00) is charged twice. 3 other charges match too, so check which.`;
    const checkName = `Statement check ${short(anchor)} – ${short(periodEnd)}`;
    const card = page.getByRole('article', { name: checkName });
    await card.getByText(dayFinding).waitFor();
    await card.getByText(rentFinding).waitFor();
    await card.getByText('Your status: Disputed').waitFor();
    await card.getByText('Waiting to sync').waitFor();
    await goOnline(context);
    await card.getByText('Waiting to sync').waitFor({ state: 'detached', timeout: 20_000 });

    // The driver's other device has it, worked out the same from the synced days and charges.
    const laptop = await newPage(run.browser, run.server);
    await logIn(laptop.page, email, 'van-route-42');
    await laptop.page.waitForURL('**/app/dashboard');
    await laptop.page.goto('/app/history?view=statements');
    const again = laptop.page.getByRole('article', { name: checkName });
    await again.getByText(dayFinding).waitFor({ timeout: 20_000 });
    await again.getByText(rentFinding).waitFor();
    await again.getByText('Your status: Disputed').waitFor();
    await again.getByText('One day missing, rent taken twice: emailed the depot').waitFor();
    assert.equal(await again.getByText('Waiting to sync').count(), 0, 'the check reached the server');
    const lines = await again.getByRole('row').allTextContents();
    assert.deepEqual(lines.slice(1), [
      'Stops310190−120',
      'Gross pay£608.80£376.20−£232.60',
      'Deductions£60.00£75.00+£15.00',
      'Net pay£548.80£301.20−£247.60',
    ]);
    await laptop.context.close();
    await context.close();
  });

  it('compares as the driver types and says what it found in words, the driver’s status apart', async () => {
    const { page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('statement-words'), 'van-route-42');
    await page.waitForURL('**/app/dashboard');

    // Last week (the default courier is paid weekly from Sunday): Monday 100 stops (£198.00) and
    // Tuesday 1 stop with £17.70 extra (£19.68). An admin fee the log has the week before.
    const now = new Date();
    const today = new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate())).toISOString().slice(0, 10);
    const lastSunday = day(new Date(`${today}T00:00:00Z`), -new Date(`${today}T00:00:00Z`).getUTCDay() - 7);
    const sunday = new Date(`${lastSunday}T00:00:00Z`);
    const [monday, tuesday, saturday] = [day(sunday, 1), day(sunday, 2), day(sunday, 6)];
    const [feeDay, before, beforeEnd] = [day(sunday, -3), day(sunday, -7), day(sunday, -1)];
    await addEntry(page, monday, 100, 'Depot A');
    const dayForm = await openDayForm(page);
    await dayForm.getByLabel('Date').fill(tuesday);
    await dayForm.getByLabel('Stops', { exact: true }).fill('1');
    await dayForm.getByLabel('Extra (£)').fill('17.70');
    await saveDayForm(page, dayForm, tuesday);
    // The fee comes from another device, through the server (the default courier's id is the account's).
    const pushed = await page.evaluate(async (from) => {
      const session = await (await fetch('/api/v1/auth/session')).json();
      const courierId = session.user.id;
      const args = { id: crypto.randomUUID(), courierId, label: 'Admin fee', amount: 2_500, repeat: 'once', from, to: null };
      const body = { clientId: crypto.randomUUID(), mutations: [{ id: crypto.randomUUID(), name: 'deduction.put', args }] };
      const reply = await fetch('/api/v1/sync/push', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return (await reply.json()).results[0].status;
    }, feeDay);
    assert.equal(pushed, 'applied');

    await page.goto('/app/history?view=statements');
    const period = page.getByRole('listitem', { name: `Pay period ${short(lastSunday)} – ${short(saturday)}` });
    await period.getByRole('button', { name: 'Check statement' }).click({ timeout: 20_000 });
    const form = period.getByRole('form', { name: `Check statement ${short(lastSunday)} – ${short(saturday)}` });
    const live = form.getByRole('region', { name: 'Compared with your log' });
    await live.getByText('Enter the net paid to compare it with your log.').waitFor();

    // The statement pays £198.00: before any Save, the form says £19.68 short and names the day.
    await form.getByLabel('Net paid, after deductions (£)').fill('198.00');
    await live.getByText('£19.68 short').waitFor();
    await live.getByText(`${weekday(tuesday)} ${short(tuesday)} (1 stop, £19.68) is missing from the statement.`).waitFor();
    // It also takes £25 of deductions (net £173.00): the fee the log has a week earlier, said with its date and period.
    await form.getByLabel('Deductions taken (£) (optional)').fill('25.00');
    await form.getByLabel('Net paid, after deductions (£)').fill('173.00');
    await live.getByText('£44.68 short').waitFor();
    const fee = `Admin fee of £25.00 was taken on ${short(feeDay)}, in the period ${short(before).slice(0, 5)}–${short(beforeEnd).slice(0, 5)}: this statement takes it.`;
    await live.getByText(fee).waitFor();
    await form.getByRole('button', { name: 'Save check' }).click();

    const card = page.getByRole('article', { name: `Statement check ${short(lastSunday)} – ${short(saturday)}` });
    await card.getByText('£44.68 short').waitFor();
    await card.getByText(fee).waitFor();
    // Nothing reads "Unchecked" beside a short statement, and no status is set until the driver sets one.
    assert.equal(await card.getByText(/Unchecked|Your status/).count(), 0);
    await card.getByRole('button', { name: /^Edit statement check/ }).click();
    await period.getByLabel('Your status').selectOption('disputed');
    await period.getByRole('button', { name: 'Save changes' }).click();
    await card.getByText('Your status: Disputed').waitFor();
    await card.getByText('£44.68 short').waitFor();
    // The sync state is said in words at the card's foot, apart from both.
    await card.getByText(/Synced|Waiting to sync/).first().waitFor();
  });
});
