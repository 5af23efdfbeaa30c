// [29] Making Tax Digital updates in Chromium against the real binary: a 2025-26 year with two
// couriers, expenses and a flat-rate van; Q1 and Q2 marked as sent with their references; a Q1
// day edited on the device while it is offline (through the history's editor) shows "changed
// since sent" with the difference on Q1, Q3's file carries it, the year-end checklist lists what
// is missing, and back online a second device sees the snapshots and the change.
// Also: the van's method is open with both figures until Q1 is sent, then fixed by the Q1 update
// (the tax year and the vehicle form say so); the dashboard's reminders name the Q1 change with
// its difference and open the year's updates; the checklist names a statement check £25 short.
// The year is 2025-26 so every quarter has ended whenever this runs.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { goOffline, goOnlineUntilSynced, syncBadge, logIn, newPage, serverAndBrowser, serverHolds, signUp, syncNow, uniqueEmail } from './harness';

const run = serverAndBrowser();

async function push(page: Page, mutations: unknown[]): Promise<void> {
  const reply = await page.evaluate(
    async (body) => (await fetch('/api/v1/sync/push', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: crypto.randomUUID(), mutations: body }) })).json(),
    mutations,
  );
  assert.ok(reply.results.every((r: { status: string }) => r.status === 'applied'), JSON.stringify(reply));
}

const entry = (id: string, date: string, total: number, courierId: string, rateCardId: string) => ({
  id: crypto.randomUUID(),
  name: 'entry.put',
  args: { id, date, stops: 100, extra: 0, notes: '', total, courierId, rateCardId, parcels: null, collections: null, failed: null, startTime: null, finishTime: null, separateShift: false },
});

async function openYear(page: Page): Promise<void> {
  await page.goto('/app/tax');
  await page.getByLabel('Tax year', { exact: true }).locator('option[value="2025-26"]').waitFor({ state: 'attached' });
  await page.getByLabel('Tax year', { exact: true }).selectOption('2025-26');
  await page.getByRole('listitem', { name: 'Q4 update' }).waitFor();
}

async function markSent(page: Page, quarter: number, reference: string): Promise<void> {
  const form = page.getByRole('form', { name: `Mark Q${quarter} as sent` });
  await form.getByLabel('Bridging software').fill('Bridger');
  await form.getByLabel(/Reference/).fill(reference);
  await form.getByRole('button', { name: `Mark Q${quarter} as sent` }).click();
  await page.getByRole('status', { name: `Q${quarter} sent` }).waitFor();
}

async function downloadedJson(page: Page, quarter: number): Promise<{ periodIncome: { turnover: number }; periodExpenses: Record<string, number> }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Q${quarter} JSON for HMRC` }).click()]);
  assert.equal(download.suggestedFilename(), `mtd-update-2025-26-Q${quarter}.json`);
  return JSON.parse(await readFile((await download.path())!, 'utf8'));
}

describe('MTD quarterly updates', () => {
  it('sends Q1 and Q2, a Q1 day edited offline on the device shows its difference, Q3 carries it, and back online a second device sees the snapshots and the change', async () => {
    const email = uniqueEmail('mtd');
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, email);
    await page.waitForURL(/\/app/);
    const records = await serverHolds(page, 'the starter courier', (all) => all.some((r) => r.kind === 'courier'));
    const me = records.find((r) => r.kind === 'courier')!.id;
    const [dpd, dpdCard, van, q1Day] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    await push(page, [
      { id: crypto.randomUUID(), name: 'courier.put', args: { id: dpd, name: 'DPD', colour: '#dc0032', periodKind: 'weekly', periodAnchor: '2025-01-05', arrearsWeeks: 0 } },
      { id: crypto.randomUUID(), name: 'rateCard.put', args: { id: dpdCard, courierId: dpd, validFrom: '2000-01-01', label: '', perStop: null, perParcel: null, parcelCapPerStop: null, perCollection: null, perFailed: null, dayRate: 12000, hourly: null, peaks: [] } },
      { id: crypto.randomUUID(), name: 'vehicle.put', args: { id: van, name: 'Transit', type: 'carVan', method: 'flatRate', commuteMiles: 0 } },
      entry(q1Day, '2025-05-10', 120_00, dpd, dpdCard),
      entry(crypto.randomUUID(), '2025-05-11', 150_00, me, me),
      entry(crypto.randomUUID(), '2025-06-12', 120_00, dpd, dpdCard),
      entry(crypto.randomUUID(), '2025-08-20', 140_00, me, me),
      entry(crypto.randomUUID(), '2025-11-03', 120_00, dpd, dpdCard),
      { id: crypto.randomUUID(), name: 'expense.put', args: { id: crypto.randomUUID(), date: '2025-05-12', amount: 65_00, category: 'fuel', note: 'Shell', courierId: null, vehicleId: van, repeat: 'once', repeatUntil: null, receipts: [] } },
      { id: crypto.randomUUID(), name: 'expense.put', args: { id: crypto.randomUUID(), date: '2025-07-01', amount: 15_00, category: 'phone', note: '', courierId: null, vehicleId: null, repeat: 'once', repeatUntil: null, receipts: [] } },
      { id: crypto.randomUUID(), name: 'mileage.put', args: { id: crypto.randomUUID(), date: '2025-05-10', vehicleId: van, courierId: null, odometerStart: null, odometerEnd: null, businessMiles: 100, commuteMiles: 0, note: '' } },
      // DPD's statement for the week of the Q1 day, which paid the £120.00 the log says (until the edit below).
      {
        id: crypto.randomUUID(),
        name: 'invoice.put',
        args: { id: crypto.randomUUID(), courierId: dpd, periodStart: '2025-05-04', periodEnd: '2025-05-10', paid: 120_00, stops: null, reference: '', parcels: null, collections: null, deductions: null, status: 'unchecked', note: '' },
      },
    ]);
    await openYear(page);
    // The van's method is open: both figures for the year so far.
    await page.getByRole('region', { name: 'Transit: both methods' }).getByText('Flat rate', { exact: true }).waitFor();
    // Q1: £390 of days; the van's fuel is not claimed (the 100 miles at 45p are).
    const q1 = await downloadedJson(page, 1);
    assert.deepEqual(q1.periodIncome, { turnover: 390 });
    assert.equal(q1.periodExpenses.carVanTravelExpenses, 65 + 45);
    await markSent(page, 1, 'HMRC-Q1');
    // Q1 claimed the van's 100 miles at the flat rate: its method is fixed now, the comparison gone.
    const fixed = page.getByRole('region', { name: 'Transit: method fixed' });
    await fixed.waitFor();
    assert.match(await fixed.innerText(), /Fixed by the Q1 2025–26 update sent on \d{1,2} \w+ \d{4}: flat rate\./);
    assert.equal(await page.getByRole('region', { name: 'Transit: both methods' }).count(), 0);
    assert.match(await page.getByRole('list', { name: 'Year-end checklist' }).innerText(), /Every vehicle’s method is settled/);
    await markSent(page, 2, 'HMRC-Q2');
    await serverHolds(page, 'both snapshots', (all) => all.filter((r) => r.kind === 'sentUpdate').length === 2);

    // The vehicle form no longer offers to change the method, and says why.
    await page.goto('/app/spending?view=mileage');
    await page.getByRole('button', { name: 'Edit Transit' }).click();
    const vehicleForm = page.getByRole('form', { name: 'Edit Transit' });
    assert.equal(await vehicleForm.getByLabel('How its costs are claimed').isDisabled(), true);
    await vehicleForm.getByText(/Its method is fixed: the Q1 2025–26 update you sent on \d{2}\/\d{2}\/\d{4} claimed it\./).waitFor();
    await vehicleForm.getByRole('button', { name: 'Cancel' }).click();

    // The second device is signed in before the change, so it sees it arrive.
    const other = await newPage(run.browser, run.server);
    await logIn(other.page, email, 'van-route-42');
    await other.page.waitForURL(/\/app/);

    // The Q1 DPD day is edited on this device while it is offline: £25 extra on its £120 day rate.
    await goOffline(context);
    await page.goto('/app/history');
    await page.getByRole('button', { name: 'Edit entry for 10/05/2025' }).click();
    const editor = page.getByRole('form', { name: 'Edit entry' });
    await editor.getByLabel('Extra (£)').fill('25');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('article', { name: 'Entry for 10/05/2025' }).getByText('£145.00').waitFor();
    await syncBadge(page).getByText(/pending sync/).waitFor();
    // Still offline, the tax year page shows it against the sent Q1.
    await openYear(page);
    const changed = page.getByRole('note', { name: 'Q1 changed since sent' });
    await changed.waitFor();
    assert.match(await changed.getByRole('list', { name: 'Q1 differences' }).innerText(), /sent £390\.00, now £415\.00[\s\S]*\+£25\.00/);
    // Q3's cumulative file includes it.
    const q3 = await downloadedJson(page, 3);
    assert.equal(q3.periodIncome.turnover, 145 + 150 + 120 + 140 + 120);
    // The checklist: Q3 and Q4 not sent, two expenses without receipts, and the statement checks
    // to do: DPD's week of the edited day now shows £25.00 short; other weeks are not checked.
    const checklist = await page.getByRole('list', { name: 'Year-end checklist' }).innerText();
    assert.match(checklist, /Not marked as sent: Q3, Q4/);
    assert.match(checklist, /2 expenses have no receipt photo/);
    assert.match(checklist, /Statement checks to do: .*DPD 04\/05\/2025 – 10\/05\/2025 \(£25\.00 short\)/);
    assert.match(checklist, /\(not checked\)/);
    assert.equal(await page.getByRole('list', { name: 'Year-end checklist' }).getByRole('link', { name: 'Open statement checks' }).getAttribute('href'), '/app/history?view=statements');

    // Still offline, the dashboard's reminders name the Q1 change, its difference and where it goes.
    await page.goto('/app/dashboard');
    const reminder = page.getByRole('listitem').filter({ hasText: 'records changed since the update was sent' });
    await reminder.waitFor();
    assert.equal(
      (await reminder.locator('p').innerText()).trim(),
      'Your Q1 2025–26 records changed since the update was sent: Turnover +£25.00. The change goes into your next cumulative update (Q3).',
    );
    // Its link opens 2025-26's updates, where Q1 shows the change.
    await reminder.getByRole('link', { name: 'Open the updates' }).click();
    await page.waitForURL(/\/app\/tax\?year=2025-26#tax-updates$/);
    await page.getByRole('note', { name: 'Q1 changed since sent' }).waitFor();
    assert.equal(await page.getByLabel('Tax year', { exact: true }).inputValue(), '2025-26');

    // Back online, the edit reaches the server and the second device sees both snapshots and the change.
    await goOnlineUntilSynced(context, page);
    await serverHolds(page, 'the edited Q1 day', (all) => all.some((r) => r.kind === 'entry' && r.id === q1Day && r.data?.total === 145_00));
    await syncNow(other.page);
    await openYear(other.page);
    assert.match(await other.page.getByRole('status', { name: 'Q1 sent' }).innerText(), /Bridger, reference HMRC-Q1/);
    assert.match(await other.page.getByRole('status', { name: 'Q2 sent' }).innerText(), /reference HMRC-Q2/);
    const seen = other.page.getByRole('note', { name: 'Q1 changed since sent' });
    await seen.waitFor();
    assert.match(await seen.getByRole('list', { name: 'Q1 differences' }).innerText(), /sent £390\.00, now £415\.00[\s\S]*\+£25\.00/);
    await other.context.close();
    await context.close();
  });
});
