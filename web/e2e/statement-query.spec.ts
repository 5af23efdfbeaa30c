// [28] A dispute in one tap, in Chromium against the real binary: a statement short by a day,
// 10 stops and a charge taken twice is imported offline; "Query this" makes the dated query
// there and then; its printable page (print media) lists each difference and the total; "Copy
// text" puts the same letter on the clipboard; it is marked as sent; an item changed on the
// device behind the app's back is named by the chain check. Back online a second device sees
// the query; it is marked paid back on the next statement, whose adjustment line is then
// explained as paid back for the query rather than counted again. Zero axe violations.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { addEntry, axeViolations, checkStatement, goOffline, goOnline, logIn, newPage, openStatementLines, phone, serverAndBrowser, serverHolds, short, signUp, thisWeek, uniqueEmail } from './harness';

const run = serverAndBrowser();



async function typeLine(page: Page, day: string, type: string, quantity: string, amount: string, reference: string): Promise<void> {
  const typed = page.getByRole('form', { name: 'Type a line' });
  // The form stays open after a line, for the next one.
  if (!(await typed.isVisible())) await page.getByRole('button', { name: 'Type a line' }).click();
  await typed.getByLabel('Day').fill(day);
  await typed.getByLabel('Type').selectOption(type);
  await typed.getByLabel('Quantity').fill(quantity);
  await typed.getByLabel('Amount (£)').fill(amount);
  await typed.getByLabel('Reference (optional)').fill(reference);
  await typed.getByRole('button', { name: 'Add the line' }).click();
}

/** Changes one stored item's amount straight in IndexedDB, as a bug or a hand would, not through the app. */
async function tamperWithItem(page: Page, queryId: string, index: number, amount: number | null): Promise<number> {
  return page.evaluate(
    async ({ queryId, index, amount }) => {
      const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.startsWith('delivery-tracker'));
      for (const name of names) {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onsuccess = () => resolve(open.result);
          open.onerror = () => reject(open.error);
        });
        if (!db.objectStoreNames.contains('statementQueries')) continue;
        const store = db.transaction('statementQueries', 'readwrite').objectStore('statementQueries');
        const record = await new Promise<{ items: { amount: number }[] } | undefined>((resolve) => {
          const get = store.get(queryId);
          get.onsuccess = () => resolve(get.result as { items: { amount: number }[] } | undefined);
        });
        if (!record) continue;
        const before = record.items[index]!.amount;
        record.items[index]!.amount = amount ?? before + 100;
        await new Promise((resolve) => (store.put(record).onsuccess = resolve));
        db.close();
        return before;
      }
      throw new Error('no stored query');
    },
    { queryId, index, amount },
  );
}

describe('statement queries', () => {
  it('makes the query offline, prints and copies it, tracks it, and the money paid back on the next statement counts once', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: run.server.url });
    const email = uniqueEmail('query');
    await signUp(page, email, 'van-route-42', 'Sam Driver');
    await page.waitForURL('**/app/dashboard');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // Two weeks ago (the queried statement) and last week (the next one), default tiers:
    // 110 stops at £1.98, then £1.48.
    const [start, monday, tuesday, wednesday, end] = [thisWeek(-14), thisWeek(-13), thisWeek(-12), thisWeek(-11), thisWeek(-8)];
    const [nextStart, nextMonday, nextEnd] = [thisWeek(-7), thisWeek(-6), thisWeek(-1)];
    await addEntry(page, monday, 100, 'R12'); // £198.00
    await addEntry(page, tuesday, 120, 'R12'); // £232.60
    await addEntry(page, wednesday, 90, 'R12'); // £178.20
    await addEntry(page, nextMonday, 100, 'R12'); // £198.00
    await checkStatement(page, start, end, '411.80');

    // Offline: the statement's lines imported, the differences named, the query made.
    await goOffline(context);
    await openStatementLines(page, start, end);
    const csv = [
      'Date,Description,Stops,Amount (£)',
      `${short(monday)},Multi-drop stops,100,198.00`,
      `${short(tuesday)},Multi-drop stops,110,217.80`,
      `${short(tuesday)},Depot charge,1,2.00`,
      `${short(tuesday)},Depot charge,1,2.00`,
    ].join('\r\n');
    await page.getByLabel('Statement file (CSV or PDF)').setInputFiles({ name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('group', { name: "Match the file's columns" }).getByRole('button', { name: 'Save the layout and import 4 lines' }).click();
    await page.getByText('Added 4 lines.').waitFor();
    await page.getByRole('list', { name: 'Differences' }).getByText('Day not on the statement').waitFor();
    await page.getByRole('button', { name: 'Query this' }).click();
    await page.waitForURL('**/app/statement-query?id=*');
    const queryId = new URL(page.url()).searchParams.get('id')!;
    await page.getByRole('heading', { level: 1, name: 'Statement query' }).waitFor();

    const letter = page.getByRole('article', { name: `Query about the statement for ${short(start)} to ${short(end)}` });
    const items = letter.getByRole('list', { name: 'Differences queried' }).getByRole('listitem');
    const item = (words: string) => items.filter({ hasText: words });
    await item('Day not on the statement').filter({ hasText: short(wednesday) }).getByText('£178.20', { exact: true }).waitFor();
    await item('10 stops logged but not paid').getByText('£14.80', { exact: true }).waitFor();
    await item('10 stops logged but not paid').getByText('Logged: 120 stops · Paid: 110 stops · Card’s rate: £1.48').waitFor();
    await item('A deduction of £2.00 taken twice').waitFor();
    assert.equal(await items.count(), 4);
    await letter.getByText('Total owed to me: £197.00').waitFor();
    const today = new Date();
    const madeOn = `${String(today.getDate()).padStart(2, '0')}/${String(today.getMonth() + 1).padStart(2, '0')}/${today.getFullYear()}`;
    await letter.getByText(`Dated ${madeOn}`).waitFor();
    const recorded = page.getByText(new RegExp(`^Recorded ${madeOn.replaceAll('/', '\\/')}, chain [0-9a-f]{8}$`)).first();
    await recorded.waitFor();
    await page.getByText('Chain checked: every item is as recorded.').waitFor();
    assert.deepEqual(await axeViolations(page), [], 'the query page');

    // "Print or save as PDF" opens the browser's print (counted here), and the print view is the letter alone.
    await page.evaluate(() => {
      window.print = () => {
        (window as unknown as { printed: number }).printed = ((window as unknown as { printed?: number }).printed ?? 0) + 1;
      };
    });
    await page.getByRole('button', { name: 'Print or save as PDF' }).click();
    assert.equal(await page.evaluate(() => (window as unknown as { printed?: number }).printed), 1);
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.getByRole('button', { name: 'Print or save as PDF' }).isVisible(), false);
    assert.equal(await page.getByRole('heading', { name: 'Tracking' }).isVisible(), false);
    assert.equal(await item('Day not on the statement').isVisible(), true);
    assert.equal(await letter.getByText('Total owed to me: £197.00').isVisible(), true);
    if (process.env.SHOTS_DIR) {
      mkdirSync(process.env.SHOTS_DIR, { recursive: true });
      await page.screenshot({ path: `${process.env.SHOTS_DIR}/statement-query-print.png`, fullPage: true });
    }
    await page.emulateMedia({ media: 'screen' });

    // "Copy text": the same letter, as plain text, on the clipboard.
    await page.getByRole('button', { name: 'Copy text' }).click();
    await page.getByText('Copied: paste it into the courier’s e-mail or portal.').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(copied, new RegExp(`^Query about the statement for ${short(start).replaceAll('/', '\\/')} to ${short(end).replaceAll('/', '\\/')}\\nDated ${madeOn.replaceAll('/', '\\/')}\\n`));
    for (const words of [`${short(wednesday)}: Day not on the statement`, '10 stops logged but not paid', 'Amount: £14.80', 'Amount: £178.20', 'Total owed to me: £197.00', 'Sam Driver']) {
      assert.ok(copied.includes(words), `the copied text has "${words}":\n${copied}`);
    }

    // Marked as sent, still offline.
    await page.getByRole('button', { name: 'Mark as sent today' }).click();
    await page.getByText('Sent, waiting for an answer').waitFor();

    if (process.env.SHOTS_DIR) {
      for (const [size, viewport] of [['390x844', phone.viewport], ['1280x800', { width: 1280, height: 800 }]] as const) {
        for (const theme of ['dark', 'light']) {
          await page.setViewportSize(viewport);
          await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
          await page.screenshot({ path: `${process.env.SHOTS_DIR}/statement-query-${size}-${theme}.png`, fullPage: true });
        }
      }
      await page.setViewportSize(phone.viewport);
    }

    // An item changed behind the app's back is named when the query is opened again.
    // (Dexie cannot see a write made around it: the page is opened again, offline, from the app's shell.)
    const before = await tamperWithItem(page, queryId, 1, null);
    await page.reload();
    await page.getByRole('alert').getByText('Item 2 has changed since the query was recorded').waitFor();
    await tamperWithItem(page, queryId, 1, before);
    await page.reload();
    await page.getByText('Chain checked: every item is as recorded.').waitFor();

    // Back online: the query reaches the server once, and a second device sees it.
    await goOnline(context);
    const held = await serverHolds(page, 'the sent query', (all) => all.some((r) => r.kind === 'statementQuery' && r.data?.sentOn !== null));
    assert.equal(held.filter((r) => r.kind === 'statementQuery').length, 1);
    assert.equal((held.find((r) => r.kind === 'statementQuery')!.data!.items as unknown[]).length, 4);
    const other = await newPage(run.browser, run.server);
    await logIn(other.page, email, 'van-route-42');
    await other.page.waitForURL('**/app/dashboard');
    await other.page.goto(`/app/statement-query?id=${queryId}`);
    await other.page.getByText('Total owed to me: £197.00').waitFor();
    await other.page.getByText('Sent, waiting for an answer').waitFor();
    await other.page.getByText('Chain checked: every item is as recorded.').waitFor();

    // The next statement pays last week's Monday and £197.00 back as an adjustment line: until
    // the query is marked paid back on it, the adjustment is pay the log does not explain.
    await checkStatement(page, nextStart, nextEnd, '395.00');
    await openStatementLines(page, nextStart, nextEnd);
    await typeLine(page, nextMonday, 'stop', '100', '198.00', 'R12');
    await typeLine(page, nextMonday, 'adjustment', '1', '197.00', 'Query refund');
    const differences = page.getByRole('list', { name: 'Differences' });
    await differences.getByText('Adjustment "Query refund" of £197.00, not in your log').waitFor();

    await page.goto(`/app/statement-query?id=${queryId}`);
    const tracking = page.getByRole('region', { name: 'Tracking' });
    await tracking.getByLabel('Paid back (£)').fill('197.00');
    // Paid back today: not before the query was made (a put saying so would be refused).
    const todayIso = `${madeOn.slice(6)}-${madeOn.slice(3, 5)}-${madeOn.slice(0, 2)}`;
    await tracking.getByLabel('Paid back on').fill(todayIso);
    await tracking.getByLabel('On the statement').selectOption({ label: `My courier ${short(nextStart)} – ${short(nextEnd)}, £395.00` });
    await tracking.getByRole('button', { name: 'Save tracking' }).click();
    await tracking.getByText('£197.00 paid back, £0.00 still owed').waitFor();

    await page.getByRole('link', { name: 'Statement check' }).click();
    await page.goto('/app/history?view=statements');
    await openStatementLines(page, nextStart, nextEnd);
    await differences.getByText(`£197.00 paid back for the query of ${madeOn}`).waitFor();
    assert.equal(await differences.getByText('Adjustment "Query refund"').count(), 0, 'not counted again as pay the log lacks');
    await differences.getByText('Total of the differences').locator('..').getByText('−£197.00').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Query this' }).count(), 0, 'nothing left to query on the next statement');
    assert.deepEqual(await axeViolations(page), [], 'the next statement check');

    await serverHolds(page, 'the query paid back on the next statement', (all) => all.some((r) => r.kind === 'statementQuery' && r.data?.paidBackAmount === 19_700 && typeof r.data.paidBackCheckId === 'string'));
    await other.context.close();
    await context.close();
  });
});
