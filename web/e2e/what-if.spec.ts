// [28] "What does a 65p cut per stop cost me", in Chromium against the real binary at 390×844:
// three known days logged on the default card (110 stops at £1.98, then £1.48), re-priced from
// the rate card's link under the same card (no difference) and under a card being considered
// (every per-stop rate 65p lower), each figure worked out by hand below; nothing is saved. The
// pay period's link opens the same page on that period.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { newPage, openDayForm, serverHolds, signUp, uniqueEmail, serverAndBrowser } from './harness';

const run = serverAndBrowser();

async function logDay(page: Page, date: string, stops: number, start?: string, finish?: string): Promise<void> {
  const form = await openDayForm(page);
  await form.getByLabel('Date').fill(date);
  await form.getByLabel('Stops').fill(String(stops));
  if (start && finish) {
    if ((await form.locator('details').getAttribute('open')) === null) await form.getByText('More details').click();
    await form.getByLabel('Start time').fill(start);
    await form.getByLabel('Finish time').fill(finish);
  }
  await form.getByRole('button', { name: 'Save Entry' }).click();
  await form.getByText('Entry saved successfully!').waitFor();
}

/** The day rows of the result table as text cells. */
async function rows(page: Page): Promise<string[][]> {
  const table = page.getByRole('table');
  await table.waitFor();
  return table.locator('tbody tr, tfoot tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((cell) => cell.textContent ?? '')));
}

describe('what would it have paid', () => {
  it('answers "what does a 65p cut per stop cost me" with the driver’s own days, saving nothing', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('what-if'));
    await page.waitForURL('**/app/dashboard');
    await logDay(page, '2025-03-03', 120, '08:00', '17:30');
    await logDay(page, '2025-03-04', 90, '09:00', '16:00');
    await logDay(page, '2025-03-05', 100);
    await logDay(page, '2025-03-10', 100); // outside the dates chosen below

    // One tap from the rate card.
    await page.goto('/app/settings');
    await page.getByRole('link', { name: 'What would a period have paid under these rates?' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'What would it have paid' }).waitFor();
    await page.getByLabel('Days', { exact: true }).selectOption({ label: 'Dates I choose' });
    await page.getByLabel('From', { exact: true }).fill('2025-03-03');
    await page.getByLabel('To', { exact: true }).fill('2025-03-09');

    // Under the card that priced the days: nothing changes.
    assert.notEqual(await page.getByLabel('Card', { exact: true }).inputValue(), 'considered');
    // 120 stops: 110 × £1.98 + 10 × £1.48 = £232.60; 90 × £1.98 = £178.20; 100 × £1.98 = £198.00.
    assert.deepEqual(await rows(page), [
      ['03/03/2025', '£232.60', '£232.60', '£0.00'],
      ['04/03/2025', '£178.20', '£178.20', '£0.00'],
      ['05/03/2025', '£198.00', '£198.00', '£0.00'],
      ['3 days', '£608.80', '£608.80', '£0.00'],
    ]);

    // A card being considered: every per-stop rate 65p lower (£1.33, then £0.83).
    await page.getByLabel('Card', { exact: true }).selectOption({ label: 'A card I am considering' });
    await page.getByLabel('Change each per-stop rate by (£)').fill('-0.65');
    // 120 × 65p = £78.00; 90 × 65p = £58.50; 100 × 65p = £65.00; £201.50 in all.
    assert.deepEqual(await rows(page), [
      ['03/03/2025', '£232.60', '£154.60', '−£78.00'],
      ['04/03/2025', '£178.20', '£119.70', '−£58.50'],
      ['05/03/2025', '£198.00', '£133.00', '−£65.00'],
      ['3 days', '£608.80', '£407.30', '−£201.50'],
    ]);
    // £ per hour over the two timed days (9 h 30 + 7 h = 990 minutes): £410.80 → £24.90 an hour;
    // £274.30 → £16.62 an hour (to the nearest penny).
    const perHour = page.locator('dt:text-is("£ per hour") + dd');
    assert.equal(await perHour.textContent(), '£24.90 → £16.62');
    assert.equal(await page.locator('dt:text-is("Difference") + dd').textContent(), '−£201.50');
    // All of it fits the phone: no sideways scrolling.
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);

    // Nothing was saved: the days keep their totals on the device and on the server.
    await page.goto('/app/history');
    await page.getByRole('article', { name: 'Entry for 03/03/2025' }).getByText('£232.60').waitFor();
    const entries = (await serverHolds(page, 'the four days', (records) => records.filter((r) => r.kind === 'entry').length === 4)).filter((r) => r.kind === 'entry');
    assert.deepEqual(entries.map((record) => record.data?.total).sort((a, b) => Number(a) - Number(b)), [17_820, 19_800, 19_800, 23_260]);

    // One tap from a pay period: the same page, on that period.
    await page.goto('/app/history?view=statements');
    const period = page.getByRole('listitem', { name: /^Pay period/ }).first();
    const periodName = ((await period.getAttribute('aria-label')) ?? '').replace(/^Pay period /, '');
    await period.getByRole('link', { name: 'What would another card have paid?' }).click();
    await page.getByRole('heading', { level: 1, name: 'What would it have paid' }).waitFor();
    const days = page.getByLabel('Days', { exact: true });
    assert.equal(await days.locator('option:checked').textContent(), `Pay period ${periodName}`);
    await context.close();
  });
});
