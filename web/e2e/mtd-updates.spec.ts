// [29] Making Tax Digital updates in Chromium against the real binary: a 2025-26 year with two
// couriers, expenses and a flat-rate van; Q1 and Q2 marked as sent with their references; a Q1
// day edited on the device while it is offline (through the history's editor) shows "changed
// since sent" with the difference on Q1, Q3's file carries it, the year-end checklist lists what
// is missing, and back online a second device sees the snapshots and the change.
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
    ]);
    await openYear(page);
    // Q1: £390 of days; the van's fuel is not claimed (the 100 miles at 45p are).
    const q1 = await downloadedJson(page, 1);
    assert.deepEqual(q1.periodIncome, { turnover: 390 });
    assert.equal(q1.periodExpenses.carVanTravelExpenses, 65 + 45);
    await markSent(page, 1, 'HMRC-Q1');
    await markSent(page, 2, 'HMRC-Q2');
    await serverHolds(page, 'both snapshots', (all) => all.filter((r) => r.kind === 'sentUpdate').length === 2);

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
    // The checklist: Q3 and Q4 not sent, the van's method open, two expenses without receipts.
    const checklist = await page.getByRole('list', { name: 'Year-end checklist' }).innerText();
    assert.match(checklist, /Not marked as sent: Q3, Q4/);
    assert.match(checklist, /2 expenses have no receipt photo/);

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
