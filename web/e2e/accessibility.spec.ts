// [issue 26] Zero axe-core violations (WCAG 2.0 A/AA, 2.1 AA, 2.2 AA) on every screen, in both
// themes, signed out and signed in, at phone size, in Chromium against the real binary. axe-core
// comes from npm and is evaluated into the page over the DevTools protocol (the app's CSP allows
// no inline script, and nothing is fetched from the network). A new violation fails the suite.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { addEntry, courierItem, couriersSection, newPage, openCourier, phone, serverAndBrowser, short, signUp, startServer, thisWeek, uniqueEmail } from './harness';

const run = serverAndBrowser();

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'];
/** Best-practice rules the issue's audit named, checked on top of the WCAG tags. */
const EXTRA_RULES = ['landmark-unique'];

interface Violation {
  id: string;
  help: string;
  nodes: { target: unknown[]; html: string }[];
}

/**
 * axe's findings on the page as it is now, one line per rule with the elements it names. The
 * window is made as tall as the page first: axe counts a control the fixed bottom bar covers as
 * too small to tap (target-size), and at rest only the page's own end is kept clear of the bar
 * (its padding), which this then checks; mid-scroll overlaps are how fixed bars work.
 */
async function violations(page: Page): Promise<string[]> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: phone.viewport.width, height: Math.max(phone.viewport.height, height) });
  try {
    return await axeFindings(page);
  } finally {
    await page.setViewportSize(phone.viewport);
  }
}

async function axeFindings(page: Page): Promise<string[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axeSource);
  // Colours are read as drawn: a slide or toast half faded in would count as low contrast. So a
  // scan starts once every finite animation has ended, and is taken again if anything started
  // to animate while it ran (on a busy machine the sync badge rose in mid-scan, fading in).
  for (let attempt = 1; ; attempt += 1) {
    const { found, moved } = await page.evaluate(
      async ({ tags, extra }) => {
        await document.fonts.ready;
        const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
        await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
        let started = 0;
        // Held in an array, not a named constant: the test runner's transpiler would wrap a named
        // function in a helper the page does not have.
        const [onStart] = [() => (started += 1)];
        document.addEventListener('animationstart', onStart, true);
        document.addEventListener('transitionstart', onStart, true);
        try {
          const result = await (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: unknown[] }> } }).axe.run(document, {
            runOnly: { type: 'tag', values: tags },
            rules: Object.fromEntries(extra.map((rule) => [rule, { enabled: true }])),
            resultTypes: ['violations'],
          });
          return { found: result.violations, moved: started > 0 };
        } finally {
          document.removeEventListener('animationstart', onStart, true);
          document.removeEventListener('transitionstart', onStart, true);
        }
      },
      { tags: TAGS, extra: EXTRA_RULES },
    );
    if (!moved || attempt === 5) {
      return (found as Violation[]).map((v) => `${v.id} (${v.help}): ${v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.html.slice(0, 160)}`).join(', ')}`);
    }
  }
}

/** Collects every screen's findings, so one run lists them all instead of stopping at the first. */
function audit() {
  const problems: string[] = [];
  const screens: string[] = [];
  return {
    async check(page: Page, screen: string) {
      screens.push(screen);
      for (const line of await violations(page)) problems.push(`${screen}: ${line}`);
    },
    done(expectedScreens: number) {
      assert.equal(screens.length, expectedScreens, `audited ${screens.join(', ')}`);
      assert.deepEqual(problems, [], `axe-core found violations:\n${problems.join('\n')}`);
    },
  };
}

/** Opens `path` and waits for its h1 (every screen has one) to read `heading`. */
async function open(page: Page, path: string, heading: string | RegExp) {
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: heading }).first().waitFor({ timeout: 20_000 });
}

const publicScreens: [path: string, heading: string | RegExp][] = [
  ['/', /Delivery Tracker|Track your delivery/],
  ['/login', /Delivery Tracker|Welcome|Login|Sign/],
  ['/forgot-password', /password/i],
  ['/reset-password', /password/i],
  ['/contact', 'Contact Us'],
  ['/privacy', 'Privacy Policy'],
  ['/terms', 'Terms of Service'],
];

const appScreens: [path: string, heading: string | RegExp][] = [
  ['/app/dashboard', 'Dashboard'],
  ['/app/history', 'All Entries'],
  ['/app/history?view=summaries', 'Summaries'],
  ['/app/history?view=statements', 'Statement checks'],
  ['/app/spending?view=expenses', 'Spending'],
  ['/app/spending?view=mileage', 'Spending'],
  ['/app/spending?view=fuel', 'Spending'],
  ['/app/tax', 'Tax year'],
  ['/app/settings', 'Payment Settings'],
  ['/app/profile', 'Profile'],
  ['/app/more', 'More'],
  ['/app/upgrade', 'Upgrade to Pro'],
  ['/app/what-if', 'What would it have paid'],
  ['/app/contact', 'Contact Us'],
  ['/app/privacy', 'Privacy Policy'],
  ['/app/terms', 'Terms of Service'],
];

describe('accessibility (axe-core)', () => {
  it('signed out: every public page in both themes, the sign-up form and a 404', async () => {
    const result = audit();
    for (const theme of ['dark', 'light'] as const) {
      const { context, page } = await newPage(run.browser, run.server);
      // A still showcase: a slide changing while axe reads the page would make the check flaky.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      // The theme a visitor last had is read before the first paint (lib/theme.ts).
      await context.addInitScript((chosen) => localStorage.setItem('delivery-tracker:theme', chosen), theme);
      for (const [path, heading] of publicScreens) {
        await open(page, path, heading);
        assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
        await result.check(page, `${theme} ${path}`);
      }
      await open(page, '/login', /./);
      await page.getByRole('tab', { name: 'Sign Up' }).click();
      await page.getByLabel('Display name').waitFor();
      await result.check(page, `${theme} /login (Sign Up)`);
      // An unknown path goes to the landing page (spec §2).
      await page.goto('/no-such-page');
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await result.check(page, `${theme} 404`);
      await context.close();
    }
    result.done(2 * (publicScreens.length + 2));
  });

  it('signed in: every app screen in both themes, with a day logged and the pay editors open', async () => {
    const result = audit();
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('axe'), 'van-route-42', 'Alex Axe');
    await page.waitForURL('**/app/dashboard');
    await addEntry(page, thisWeek(0), 120, 'Depot A');
    await open(page, '/app/settings', 'Payment Settings');
    await couriersSection(page).getByRole('button', { name: 'Add courier' }).click();
    await page.getByLabel('Name').fill('Evri');
    await couriersSection(page).getByRole('button', { name: 'Add courier' }).click();
    await courierItem(page, 'Evri').waitFor();
    // A van with two full fills, so the fuel view shows its figures and its list (issue 32).
    await open(page, '/app/spending?view=mileage', 'Spending');
    await page.getByRole('button', { name: 'Add vehicle' }).click();
    await page.getByRole('form', { name: 'Add a vehicle' }).getByLabel('Name').fill('Transit');
    await page.getByRole('form', { name: 'Add a vehicle' }).getByRole('button', { name: 'Add vehicle' }).click();
    // The next step is a page load: it must not cut the device off before it has written the van.
    await page.getByRole('region', { name: 'Vehicles' }).getByText('Transit').waitFor();
    await open(page, '/app/spending?view=fuel', 'Spending');
    for (const [litres, cost, odometer] of [['45.67', '68.45', '42130'], ['40', '60', '42530']] as const) {
      await page.getByRole('button', { name: 'Log a fill' }).click();
      const fill = page.getByRole('form', { name: 'Log a fill' });
      await fill.getByLabel('Litres').fill(litres);
      await fill.getByLabel('Cost (£)').fill(cost);
      await fill.getByLabel(/Odometer/).fill(odometer);
      await fill.getByRole('button', { name: 'Log fill' }).click();
      await fill.waitFor({ state: 'detached' });
    }
    // A statement check paying less than the day logged, and the query "Query this" makes of it.
    const [start, end] = [thisWeek(0), thisWeek(6)];
    await open(page, '/app/history?view=statements', 'Statement checks');
    const period = page.getByRole('listitem', { name: `Pay period ${short(start)} – ${short(end)}` });
    await period.getByRole('button', { name: 'Check statement' }).click();
    await period.getByLabel('Net paid, after deductions (£)').fill('100');
    await period.getByRole('button', { name: 'Save check' }).click();
    await page.getByRole('link', { name: `Lines and differences of statement check ${short(start)} – ${short(end)}` }).click();
    await page.getByRole('button', { name: 'Query this' }).click();
    await page.waitForURL('**/app/statement-query?id=*');
    const queryPage = new URL(page.url());
    // Each with a text that says its records are read, so axe sees the whole page.
    const statementPages: [path: string, heading: string, ready: string][] = [
      [`${queryPage.pathname}${queryPage.search}`, 'Statement query', 'Chain checked: every item is as recorded.'],
      [(await page.getByRole('link', { name: 'Statement check' }).getAttribute('href'))!, 'Statement check', 'Total of the differences'],
    ];
    for (const theme of ['dark', 'light'] as const) {
      await open(page, '/app/profile', 'Profile');
      const button = page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: theme === 'dark' ? 'Dark' : 'Light' });
      await button.click();
      await button.and(page.locator('[aria-pressed="true"]')).waitFor();
      for (const [path, heading] of appScreens) {
        await open(page, path, heading);
        assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
        await result.check(page, `${theme} ${path}`);
      }
      for (const [path, heading, ready] of statementPages) {
        await open(page, path, heading);
        await page.getByText(ready).waitFor();
        await result.check(page, `${theme} ${path}`);
      }
      // The pay editors of two couriers open side by side: a new rate card and a new deduction each.
      await open(page, '/app/settings', 'Payment Settings');
      for (const name of ['My courier', 'Evri']) {
        const courier = await openCourier(page, name);
        await courier.getByRole('button', { name: 'Change rates from a date' }).click();
        await courier.getByRole('button', { name: 'Add deduction' }).click();
        await courier.getByRole('form', { name: /^Add a deduction/ }).waitFor();
      }
      await result.check(page, `${theme} /app/settings (two couriers' editors open)`);
      await open(page, '/app/spending?view=fuel', 'Spending');
      await page.getByRole('button', { name: 'Log a fill' }).click();
      await page.getByRole('form', { name: 'Log a fill' }).waitFor();
      await result.check(page, `${theme} /app/spending?view=fuel (a fill being logged)`);
    }
    result.done(2 * (appScreens.length + 2 + 2));
    await context.close();
  });

  it('the invite page, and every app screen of a server with plans off, in both themes', async () => {
    const result = audit();
    const email = uniqueEmail('axe-invited');
    const token = /\/invite#([A-Za-z0-9_-]+)/.exec(run.server.admin('users', 'invite', email))?.[1];
    assert.ok(token, 'users invite printed a link');
    const plansOff = await startServer({ PLANS_ENABLED: 'false' });
    try {
      for (const theme of ['dark', 'light'] as const) {
        const invited = await newPage(run.browser, run.server);
        await invited.context.addInitScript((chosen) => localStorage.setItem('delivery-tracker:theme', chosen), theme);
        await open(invited.page, `/invite#${token}`, 'Create your account');
        // The invitation is read from the server first: the form, with the invited address, shows then.
        await invited.page.getByText(email).waitFor();
        await result.check(invited.page, `${theme} /invite`);
        await invited.context.close();
      }
      const { context, page } = await newPage(run.browser, plansOff);
      await signUp(page, uniqueEmail('axe-plans-off'), 'van-route-42', 'Pat Plansoff');
      await page.waitForURL('**/app/dashboard');
      await addEntry(page, thisWeek(0), 120, 'Depot A');
      const screens = appScreens.filter(([path]) => path !== '/app/upgrade');
      for (const theme of ['dark', 'light'] as const) {
        await open(page, '/app/profile', 'Profile');
        const button = page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: theme === 'dark' ? 'Dark' : 'Light' });
        await button.click();
        await button.and(page.locator('[aria-pressed="true"]')).waitFor();
        for (const [path, heading] of screens) {
          await open(page, path, heading);
          await result.check(page, `plans off, ${theme} ${path}`);
        }
      }
      result.done(2 + 2 * screens.length);
      await context.close();
    } finally {
      await plansOff.stop();
    }
  });
});
