// [26] Every screen's title reads in full on a 390 px phone, in Chromium against the real binary:
// the header's "Delivery Tracker" (beside the "+", Sync Data and the avatar) and the screen's
// own heading are never clipped (a clipped box scrolls wider than it shows).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { newPage, signUp, uniqueEmail, serverAndBrowser } from './harness';

const run = serverAndBrowser();

const screens = [
  '/app/dashboard',
  '/app/history',
  '/app/history?view=statements',
  '/app/spending',
  '/app/spending?view=mileage',
  '/app/tax',
  '/app/more',
  '/app/profile',
  '/app/settings',
  '/app/upgrade',
  '/app/contact',
  '/app/privacy',
  '/app/terms',
];

/** The box's content wider than the box itself: text cut off, with or without an ellipsis. */
async function clipped(locator: Locator): Promise<string | null> {
  const { scroll, client, text } = await locator.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth, text: element.textContent }));
  return scroll > client ? `"${text}" needs ${scroll} px, shows ${client} px` : null;
}

describe('titles on a phone', () => {
  it('the header title and every screen heading read in full at 390 px', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('titles'));
    await page.waitForURL('**/app/dashboard');
    const problems: string[] = [];
    for (const screen of screens) {
      await page.goto(screen);
      const heading = page.getByRole('main').getByRole('heading', { level: 1 });
      await heading.waitFor();
      const title = page.getByRole('banner').getByRole('link', { name: 'Delivery Tracker' });
      for (const found of [await clipped(title), await clipped(heading)]) if (found) problems.push(`${screen}: ${found}`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
});
