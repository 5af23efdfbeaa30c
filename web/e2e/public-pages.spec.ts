// [4/5] What a visitor sees, in Chromium against the real binary: the showcase moves on by
// itself (and stops when paused), and every public page renders signed out (with the terms
// banner) and, for a signed-in driver, inside the app.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { newPage, signUp, uniqueEmail, serverAndBrowser } from './harness';

const run = serverAndBrowser();

const pages = [
  ['privacy', 'Last updated: March 21, 2025'],
  ['terms', 'Last updated: March 22, 2025'],
  ['contact', 'Send Message'],
] as const;

function currentSlide(page: Page) {
  return page.locator('[aria-roledescription="slide"]').getAttribute('aria-label');
}

describe('public site', () => {
  it('the showcase advances every few seconds and stays put when paused', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await page.goto('/');
    await page.getByText('Track your delivery stats efficiently').first().waitFor();
    const first = await currentSlide(page);
    assert.match(first ?? '', /^1 of 5: /);
    await page.waitForFunction(
      (label) => document.querySelector('[aria-roledescription="slide"]')?.getAttribute('aria-label') !== label,
      first,
      { timeout: 10_000 },
    );
    assert.match((await currentSlide(page)) ?? '', /^2 of 5: /);

    await page.getByRole('button', { name: 'Pause showcase' }).click();
    const paused = await currentSlide(page);
    await page.waitForTimeout(5_000);
    assert.equal(await currentSlide(page), paused, 'a paused showcase does not move');
    await context.close();
  });

  it('renders each public page signed out with the terms banner, and inside the app signed in', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    for (const [name, text] of pages) {
      await page.goto(`/${name}`);
      await page.getByText(text).first().waitFor();
      await page.getByRole('complementary', { name: 'Terms notice' }).getByRole('link', { name: /terms/i }).waitFor();
      assert.equal(await page.getByRole('navigation', { name: 'Main' }).count(), 0, 'no app navigation signed out');
    }

    await signUp(page, uniqueEmail('public'), 'van-route-42', 'Sam Driver');
    await page.waitForURL('**/app/dashboard');
    for (const [name, text] of pages) {
      await page.goto(`/app/${name}`);
      await page.getByText(text).first().waitFor();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      assert.equal(await page.getByRole('complementary', { name: 'Terms notice' }).count(), 0, 'no banner once signed in');
      // The public address sends a signed-in driver to the dashboard (spec §2).
      await page.goto(`/${name}`);
      await page.waitForURL('**/app/dashboard');
    }
    await context.close();
  });
});
