// [4/5] History in Chromium against the real binary: an entry edited and another deleted with
// no network reach the driver's other device once back online; the CSV export's rows are the
// entries; a statement check with a shortfall names the day missing from the statement.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { addEntry, goOffline, goOnlineUntilSynced, logIn, newPage, signUp, syncBadge, uniqueEmail, serverAndBrowser } from './harness';

const run = serverAndBrowser();

function entryCard(page: Page, day: string) {
  return page.getByRole('article', { name: `Entry for ${day}` });
}

/** A small RFC 4180 reader: quoted fields, doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
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

describe('history', () => {
  it('edits and deletes entries offline, then the other device sees both after sync', async () => {
    const email = uniqueEmail('history');
    const phone = await newPage(run.browser, run.server);
    await signUp(phone.page, email, 'van-route-42', 'Sam Driver');
    await phone.page.waitForURL('**/app/dashboard');
    await phone.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await addEntry(phone.page, '2025-03-17', 101, 'Monday run');
    await addEntry(phone.page, '2025-03-18', 102, 'Tuesday run');
    await addEntry(phone.page, '2025-03-19', 103, 'Wednesday run');

    const laptop = await newPage(run.browser, run.server);
    await logIn(laptop.page, email, 'van-route-42');
    await laptop.page.waitForURL('**/app/dashboard');
    await laptop.page.goto('/app/history');
    await entryCard(laptop.page, '19/03/2025').waitFor({ timeout: 20_000 });

    // Offline before the history was ever opened: its code comes from the service worker.
    await goOffline(phone.context);
    await phone.page.goto('/app/history');
    await entryCard(phone.page, '18/03/2025').waitFor();

    await phone.page.getByRole('button', { name: 'Edit entry for 18/03/2025' }).click();
    await phone.page.getByLabel('Stops').fill('130');
    await phone.page.getByLabel('Notes').fill('Tuesday run, corrected');
    await phone.page.getByRole('button', { name: 'Save changes' }).click();
    const edited = entryCard(phone.page, '18/03/2025');
    await edited.getByText('Tuesday run, corrected').waitFor();
    await edited.getByText('Waiting to sync').waitFor();

    await phone.page.getByRole('button', { name: 'Delete entry for 17/03/2025' }).click();
    await phone.page.getByText('Entry for 17/03/2025 deleted').waitFor();
    await entryCard(phone.page, '17/03/2025').waitFor({ state: 'detached' });
    await syncBadge(phone.page).getByText('2 changes pending sync').waitFor();
    assert.equal(await laptop.page.getByText('Tuesday run, corrected').count(), 0, 'nothing reached the server yet');

    await goOnlineUntilSynced(phone.context, phone.page);

    // The laptop is poked and pulls: no reload.
    await entryCard(laptop.page, '18/03/2025').getByText('Tuesday run, corrected').waitFor({ timeout: 20_000 });
    await entryCard(laptop.page, '17/03/2025').waitFor({ state: 'detached', timeout: 20_000 });
    assert.equal(await entryCard(laptop.page, '18/03/2025').getByText('130', { exact: true }).count(), 1);
    await phone.context.close();
    await laptop.context.close();
  });

  it('exports a CSV of the entries, and a statement check names the missing day', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('export'), 'van-route-42', 'Sam Driver');
    await page.waitForURL('**/app/dashboard');
    // The account's courier and first card arrive with the first pull; until then a day would
    // be priced with no card (its extra only).
    await page.getByText('Priced with My courier rates from the start').waitFor({ timeout: 20_000 });
    // Default tiers: 110 stops at £1.98, then £1.48.
    await addEntry(page, '2025-03-17', 100, 'Depot B, "late" start'); // £198.00
    await addEntry(page, '2025-03-18', 120, '=SUM(A1:A9)'); // £232.60
    await addEntry(page, '2025-03-19', 90, ''); // £178.20

    await page.goto('/app/history');
    await entryCard(page, '19/03/2025').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    assert.equal(download.suggestedFilename(), 'delivery-tracker-2025-03-17-to-2025-03-19.csv');
    const text = await readFile((await download.path())!, 'utf8');
    assert.ok(text.startsWith('\uFEFF'), 'starts with a byte order mark');
    const rows = parseCsv(text.slice(1));
    // The courier and card ids close each row: every day here is the default courier's, priced
    // by its first card, and both have the account's id.
    const ids = rows.slice(1).map((row) => row.slice(-2));
    assert.match(ids[0]![0]!, /^[0-9a-f-]{36}$/);
    for (const pair of ids) assert.deepEqual(pair, [ids[0]![0], ids[0]![0]]);
    assert.deepEqual(
      rows.map((row) => row.slice(0, -2)),
      [
        ['Date', 'Courier', 'Stops', 'Parcels', 'Collections', 'Failed/returned', 'Start', 'Finish', 'Extra (£)', 'Total (£)', 'Notes', 'Separate shift'],
        ['17/03/2025', 'My courier', '100', '', '', '', '', '', '0.00', '198.00', 'Depot B, "late" start', ''],
        ['18/03/2025', 'My courier', '120', '', '', '', '', '', '0.00', '232.60', "'=SUM(A1:A9)", ''],
        ['19/03/2025', 'My courier', '90', '', '', '', '', '', '0.00', '178.20', '', ''],
      ],
    );
    assert.deepEqual(rows[0]!.slice(-2), ['Courier ID', 'Rate card ID']);

    await page.getByRole('link', { name: 'Statement checks' }).click();
    // The default courier is paid weekly from Sunday; the week checked is older than the first page of periods.
    await page.getByRole('list', { name: 'Pay periods' }).waitFor();
    const period = page.getByRole('listitem', { name: 'Pay period 16/03/2025 – 22/03/2025' });
    while ((await period.count()) === 0) await page.getByRole('button', { name: /^Show older periods/ }).click();
    await period.getByRole('button', { name: 'Check statement' }).click();
    const form = period.getByRole('form', { name: 'Check statement 16/03/2025 – 22/03/2025' });
    await form.getByLabel('Net paid, after deductions (£)').fill('376.20');
    await form.getByRole('button', { name: 'Save check' }).click();
    const check = page.getByRole('article', { name: 'Statement check 16/03/2025 – 22/03/2025' });
    await check.getByText('Tue 18/03/2025 (120 stops, £232.60) is missing from the statement.', { exact: false }).waitFor();
    await check.getByRole('row', { name: /^Net pay/ }).getByText('−£232.60').waitFor();
    await context.close();
  });
});
