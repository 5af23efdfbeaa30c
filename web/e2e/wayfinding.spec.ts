// [issue 26] One tap to every place a driver goes, on a 390×844 phone in Chromium against the
// real binary: each bottom-bar item lit on its own screens (and only it), statement checks one
// tap away, "Get Started" opening Sign Up, and the summaries' Net on screen without sideways
// scrolling.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { addEntry, newPage, serverAndBrowser, signUp, thisWeek, uniqueEmail } from './harness';

const run = serverAndBrowser();

/** The bottom bar's items that read as the current page. */
async function lit(page: Page): Promise<string[]> {
  return page.getByRole('navigation', { name: 'Main' }).locator('a[aria-current="page"]').allTextContents();
}

async function heading(page: Page, name: string) {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor({ timeout: 20_000 });
}

describe('wayfinding on a phone', () => {
  it('Get Started opens Sign Up, from the landing page and from a link opened directly', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await page.goto('/');
    await page.getByRole('link', { name: 'Get Started' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('tab', { name: 'Sign Up', selected: true }).waitFor();
    await page.getByLabel('Display name').waitFor();
    await page.getByRole('button', { name: 'Sign Up' }).waitFor();

    // Straight to the link (a bookmark, a reload): the prerendered Login markup is adopted, then Sign Up shows.
    await page.goto('/login?mode=sign-up');
    await page.getByRole('tab', { name: 'Sign Up', selected: true }).waitFor();
    await page.getByLabel('Display name').waitFor();
    // And plain /login still opens on Login.
    await page.goto('/login');
    await page.getByRole('tab', { name: 'Login', selected: true }).waitFor();
    assert.equal(await page.getByLabel('Display name').count(), 0);
    await context.close();
  });

  it('lights every bar item on its own screens, and only that one', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('nav'), 'van-route-42', 'Nav Driver');
    await page.waitForURL('**/app/dashboard');
    const bar = page.getByRole('navigation', { name: 'Main' });
    // Six items side by side on the phone, every label whole: the bar no wider than the screen.
    const fit = await bar.evaluate((nav) => ({
      bar: nav.querySelector('ul')!.scrollWidth,
      labels: Array.from(nav.querySelectorAll('a span')).filter((label) => label.scrollWidth > label.clientWidth || label.getBoundingClientRect().right > window.innerWidth).map((label) => label.textContent),
    }));
    assert.deepEqual(fit, { bar: 390, labels: [] });

    const items: [item: string, screenHeading: string][] = [
      ['History', 'All Entries'],
      ['Statements', 'Statement checks'],
      ['Spending', 'Spending'],
      ['Tax', 'Tax year'],
      ['More', 'More'],
      ['Home', 'Dashboard'],
    ];
    for (const [item, screenHeading] of items) {
      await bar.getByRole('link', { name: item, exact: true }).click();
      await heading(page, screenHeading);
      assert.deepEqual(await lit(page), [item], `on ${screenHeading}`);
    }

    // Sub-screens and views keep their item lit.
    const deeper: [path: string, screenHeading: string, item: string][] = [
      ['/app/history?view=summaries', 'Summaries', 'History'],
      ['/app/history?view=statements', 'Statement checks', 'Statements'],
      ['/app/spending?view=mileage', 'Spending', 'Spending'],
      ['/app/settings', 'Payment Settings', 'More'],
      ['/app/profile', 'Profile', 'More'],
      ['/app/upgrade', 'Upgrade to Pro', 'More'],
      ['/app/contact', 'Contact Us', 'More'],
      ['/app/privacy', 'Privacy Policy', 'More'],
      ['/app/terms', 'Terms of Service', 'More'],
      ['/app', 'Dashboard', 'Home'],
    ];
    for (const [path, screenHeading, item] of deeper) {
      await page.goto(path);
      await heading(page, screenHeading);
      assert.deepEqual(await lit(page), [item], `on ${path}`);
    }

    // The history's view tabs move the light between History and Statements.
    await page.goto('/app/history');
    await heading(page, 'All Entries');
    await page.getByRole('link', { name: 'Statement checks' }).click();
    await heading(page, 'Statement checks');
    assert.deepEqual(await lit(page), ['Statements']);

    // More leads to both kinds of settings, each under the heading its link names.
    await bar.getByRole('link', { name: 'More', exact: true }).click();
    await page.getByRole('main').getByRole('link', { name: /^Payment Settings/ }).click();
    await heading(page, 'Payment Settings');
    await page.getByRole('region', { name: 'Couriers & pay' }).waitFor();
    await bar.getByRole('link', { name: 'More', exact: true }).click();
    await page.getByRole('main').getByRole('link', { name: /^Profile/ }).click();
    await heading(page, 'Profile');
    await page.getByRole('group', { name: 'Theme' }).waitFor();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    await context.close();
  });

  it('shows each period’s Net on a phone without sideways scrolling', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('net'), 'van-route-42', 'Net Driver');
    await page.waitForURL('**/app/dashboard');
    await addEntry(page, thisWeek(0), 120, 'Depot A');
    await page.goto('/app/history?view=summaries');
    await heading(page, 'Summaries');
    const weekly = page.getByRole('region', { name: 'Weekly summary' });
    const card = weekly.getByRole('listitem').first();
    const net = card.getByText(/^Net £/);
    await net.waitFor();
    const box = await net.boundingBox();
    assert.ok(box, 'Net is drawn');
    const viewport = page.viewportSize()!;
    assert.ok(box.x >= 0 && box.x + box.width <= viewport.width, `Net at ${box.x}–${box.x + box.width} fits the ${viewport.width} px screen`);
    // Nothing on the page is wider than the phone, and the wide table is not what shows.
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), viewport.width);
    assert.equal(await weekly.getByRole('table').count(), 0, 'the table is for wider screens');
    await context.close();
  });
});
