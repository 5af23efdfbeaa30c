// [28] A statement checked line by line in Chromium against the real binary: three days logged,
// a statement check for last week, then, offline, the courier's per-day CSV imported through the
// column-mapping step; the check names the missing day, the stops paid short and the charge
// taken twice with their amounts, one tap shows the day behind a difference, the same file
// again adds nothing (the saved layout makes it one tap), and back online the lines and the
// layout reach the server once each. Zero axe violations on the page at phone size.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { addEntry, axeViolations, checkStatement, goOffline, goOnline, newPage, openStatementLines, phone, serverAndBrowser, serverHolds, short, signUp, thisWeek, uniqueEmail } from './harness';

const run = serverAndBrowser();


describe('statement lines', () => {
  it('imports a per-day CSV offline through the column mapping, names each difference with its amount, and a re-import adds nothing', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('lines'), 'van-route-42', 'Sam Driver');
    await page.waitForURL('**/app/dashboard');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // Last week (Sunday to Saturday, the default courier's weekly period), default tiers:
    // 110 stops at £1.98, then £1.48.
    const [start, monday, tuesday, wednesday, end] = [thisWeek(-7), thisWeek(-6), thisWeek(-5), thisWeek(-4), thisWeek(-1)];
    await addEntry(page, monday, 100, 'R12'); // £198.00
    await addEntry(page, tuesday, 120, 'R12'); // £232.60
    await addEntry(page, wednesday, 90, 'R12'); // £178.20

    // The statement: Monday right, Tuesday 10 stops short, Wednesday missing, a £2 charge twice.
    await checkStatement(page, start, end, '411.80');

    await goOffline(context);
    await openStatementLines(page, start, end);
    const csv = [
      'Date,Description,Stops,Amount (£)',
      `${short(monday)},Multi-drop stops,100,198.00`,
      `${short(tuesday)},Multi-drop stops,110,217.80`,
      `${short(tuesday)},Depot charge,1,2.00`,
      `${short(tuesday)},Depot charge,1,2.00`,
    ].join('\r\n');
    const file = { name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) };
    await page.getByLabel('Statement file (CSV or PDF)').setInputFiles(file);
    const mapping = page.getByRole('group', { name: "Match the file's columns" });
    await mapping.getByText('4 lines read.').waitFor();
    assert.equal(await mapping.getByLabel('“Depot charge”').inputValue(), 'deduction');
    assert.equal(await mapping.getByLabel('Deductions are written without a minus (take them off)').isChecked(), true);
    assert.deepEqual(await axeViolations(page), [], 'the mapping step');
    if (process.env.SHOTS_DIR) {
      mkdirSync(process.env.SHOTS_DIR, { recursive: true });
      await page.screenshot({ path: `${process.env.SHOTS_DIR}/statement-mapping-390x844-dark.png`, fullPage: true });
    }
    await mapping.getByRole('button', { name: 'Save the layout and import 4 lines' }).click();
    await page.getByText('Added 4 lines.').waitFor();

    const differences = page.getByRole('list', { name: 'Differences' });
    const row = (words: string) => differences.getByRole('listitem').filter({ hasText: words });
    await row('Day not on the statement').filter({ hasText: short(wednesday) }).getByText('£178.20', { exact: true }).waitFor();
    await row('10 stops logged but not paid').getByText('£14.80', { exact: true }).waitFor();
    await row('A deduction of £2.00 taken twice').getByText('£2.00', { exact: true }).waitFor();
    await row('A deduction of £2.00 is not in your deductions').waitFor();
    await differences.getByText('Total of the differences').waitFor();
    assert.equal(await page.getByText('£197.00').count() >= 2, true, 'the differences add up to what is owed');

    // One tap to the day behind the missing day.
    await row('Day not on the statement').getByRole('button', { name: /Show the records behind it/ }).click();
    await row('Day not on the statement').getByRole('link', { name: `Your day ${short(wednesday)}: 90 stops, £178.20` }).waitFor();

    // The same file again: the saved layout imports in one tap, and nothing is added.
    await page.getByLabel('Statement file (CSV or PDF)').setInputFiles(file);
    await page.getByText('Nothing new: all 4 lines of this file are already on this statement.').waitFor();
    assert.equal(await page.getByRole('list', { name: 'Statement lines' }).getByRole('listitem').count(), 4);

    // A line typed from the paper copy: a bonus the log does not have.
    await page.getByRole('button', { name: 'Type a line' }).click();
    const typed = page.getByRole('form', { name: 'Type a line' });
    await typed.getByLabel('Day').fill(tuesday);
    await typed.getByLabel('Type').selectOption('bonus');
    await typed.getByLabel('Amount (£)').fill('5');
    await typed.getByLabel('Reference (optional)').fill('Peak');
    await typed.getByRole('button', { name: 'Add the line' }).click();
    await row('Bonus "Peak" of £5.00, not in your log').getByText('−£5.00', { exact: true }).waitFor();
    assert.equal(await page.getByRole('list', { name: 'Statement lines' }).getByRole('listitem').count(), 5);

    await page.setViewportSize(phone.viewport);
    assert.deepEqual(await axeViolations(page), []);
    if (process.env.SHOTS_DIR) {
      mkdirSync(process.env.SHOTS_DIR, { recursive: true });
      for (const [size, viewport] of [['390x844', phone.viewport], ['1280x800', { width: 1280, height: 800 }]] as const) {
        for (const theme of ['dark', 'light']) {
          await page.setViewportSize(viewport);
          await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
          await page.screenshot({ path: `${process.env.SHOTS_DIR}/statement-check-${size}-${theme}.png`, fullPage: true });
        }
      }
      await page.setViewportSize(phone.viewport);
    }

    await goOnline(context);
    const records = await serverHolds(page, 'the 5 lines and the layout', (all) => all.filter((r) => r.kind === 'statementLine').length === 5 && all.some((r) => r.kind === 'statementFormat'));
    assert.equal(records.filter((r) => r.kind === 'statementLine').length, 5);
    assert.equal(records.filter((r) => r.kind === 'statementFormat').length, 1);
    await context.close();
  });
});
