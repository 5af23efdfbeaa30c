// [28] A dispute in one tap from History, in Chromium against the real binary: a statement check
// paying a day short, with no lines imported, offers "Query this" on its card in the pay periods;
// the query lists ONE difference, the period's whole shortfall; the check is marked Disputed
// with it; back on the card, the tap opens that same query, never a second. The reminder's days
// set in Payment Settings are the query page's. Zero axe violations on each screen touched, in
// both themes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { addEntry, axeViolations, checkStatement, newPage, openNav, serverAndBrowser, serverHolds, setTheme, short, shots, signUp, thisWeek, uniqueEmail } from './harness';

const run = serverAndBrowser();

/** axe in both themes (the theme set on the page, as the screenshots do), then back to the app's own. */
async function noViolations(page: Page, what: string): Promise<void> {
  for (const theme of ['light', 'dark']) {
    await setTheme(page, theme);
    assert.deepEqual(await axeViolations(page), [], `${what}, ${theme} theme`);
  }
}

describe('"Query this" from History', () => {
  it('queries a short check without lines in one tap, marks it disputed, opens the same query on a second tap, and the reminder days from Payment Settings', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('query-history'), 'van-route-42', 'Sam Driver');
    await page.waitForURL('**/app/dashboard');
    // Two weeks ago, default tiers (110 stops at £1.98, then £1.48): £198.00 and £232.60.
    const [start, monday, tuesday, end] = [thisWeek(-14), thisWeek(-13), thisWeek(-12), thisWeek(-8)];
    await addEntry(page, monday, 100, 'R12');
    await addEntry(page, tuesday, 120, 'R12');

    // The statement paid Monday only; its lines are never imported.
    const card = await checkStatement(page, start, end, '198.00');
    await card.getByText('£232.60 short').waitFor();
    const queryThis = card.getByRole('button', { name: 'Query this' });
    await queryThis.waitFor();
    assert.equal(await card.getByText('Your status:').count(), 0, 'not followed up yet');
    await noViolations(page, 'the statements view with "Query this"');
    await shots(page, 'history-statements-query-this', card, { inView: true });

    await queryThis.click();
    await page.waitForURL('**/app/statement-query?id=*');
    const queryId = new URL(page.url()).searchParams.get('id')!;
    const letter = page.getByRole('article', { name: `Query about the statement for ${short(start)} to ${short(end)}` });
    const items = letter.getByRole('list', { name: 'Differences queried' }).getByRole('listitem');
    const item = items.filter({ hasText: 'Unexplained: the statement paid £232.60 less than your log says for the period' });
    await item.getByText('Whole statement').waitFor();
    await item.getByText('£232.60', { exact: true }).waitFor();
    await item.getByText('Logged: £430.60 · Paid: £198.00').waitFor();
    assert.equal(await items.count(), 1, 'one difference: no day "not on the statement", no lines "adding up to £0.00"');
    await letter.getByText('Total owed to me: £232.60').waitFor();
    await page.getByText('Chain checked: every item is as recorded.').waitFor();

    // Back on the card: disputed, and the tap opens the same query.
    await page.goto('/app/history?view=statements');
    await card.getByText('Your status: Disputed').waitFor();
    const today = new Date();
    const madeOn = `${String(today.getDate()).padStart(2, '0')}/${String(today.getMonth() + 1).padStart(2, '0')}/${today.getFullYear()}`;
    const made = card.getByRole('link', { name: `Query made ${madeOn}` });
    await made.waitFor();
    assert.equal(await queryThis.count(), 0, 'no second "Query this"');
    await noViolations(page, 'the statements view with the query made');
    await shots(page, 'history-statements-query-made', card, { inView: true });
    await made.click();
    await page.waitForURL(`**/app/statement-query?id=${queryId}`);
    await letter.getByText('Total owed to me: £232.60').waitFor();

    // The server has the one query and the check disputed: one write, pushed together.
    const held = await serverHolds(page, 'the query and the disputed check', (all) => all.some((r) => r.kind === 'statementQuery') && all.some((r) => r.kind === 'invoice' && r.data?.status === 'disputed'));
    assert.equal(held.filter((r) => r.kind === 'statementQuery').length, 1);
    assert.equal(held.find((r) => r.kind === 'statementQuery')!.data!.total, 23_260);

    // The reminder's days, set where a driver looks for them, are the query page's.
    await openNav(page, 'Settings');
    const reminder = page.getByRole('region', { name: 'Statement queries' });
    const days = reminder.getByLabel('Remind me when a sent query has had no answer for (days)');
    await days.fill('95');
    await reminder.getByRole('button', { name: 'Save days' }).click();
    await reminder.getByText('Choose 1 to 90 days').waitFor();
    await days.fill('21');
    await reminder.getByRole('button', { name: 'Save days' }).click();
    await reminder.getByText('Saved on this device; it syncs when you are online.').waitFor();
    await noViolations(page, 'Payment Settings');
    await shots(page, 'payment-settings', reminder, { inView: true });
    await page.goto(`/app/statement-query?id=${queryId}`);
    const onQuery = page.getByRole('region', { name: 'Reminder' }).getByLabel('Remind me when a sent query has had no answer for (days)');
    // The field shows the stored days once the settings are read from the device.
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('section[aria-labelledby="reminder-title"] input')?.value === '21');
    assert.equal(await onQuery.inputValue(), '21');
    await noViolations(page, 'the query page');
    await serverHolds(page, 'the reminder days', (all) => all.some((r) => r.kind === 'settings' && r.data?.queryReminderDays === 21));
    await context.close();
  });
});
