// The landing and login pages paint their own markup before any JS runs (issue 15,
// scripts/prerender.ts), and React's first render draws the same thing in the same place: no
// other layout flashes in between, and nothing can be typed or tapped before React listens.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { phone, serverAndBrowser } from './harness';

const run = serverAndBrowser();

/** Every heading, text, control and link on the page with its box, outside the moving showcase. */
function layout(page: Page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('h1, h2, p, label, input, button, a, li'))
      .filter((element) => !element.closest('[aria-roledescription]'))
      .map((element) => {
        const box = element.getBoundingClientRect();
        const text = (element.textContent ?? '').trim().slice(0, 40);
        return `${element.tagName} "${text}" ${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}x${Math.round(box.height)}`;
      }),
  );
}

// Reduced motion: the showcase stays on its first slide, so the page below it stays put.
const still = () => ({ ...phone, baseURL: run.server.url, reducedMotion: 'reduce' as const });

async function openWithoutJs(path: string) {
  const context = await run.browser.newContext({ ...still(), javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(path);
  return { context, page };
}

describe('first paint of the public pages', () => {
  for (const [path, control] of [
    ['/', 'Dashboard'],
    ['/login', 'Continue as guest'],
  ] as const) {
    it(`${path} paints itself before any JS, and React draws the same in the same place`, async () => {
      const before = await openWithoutJs(path);
      // The first paint is the page, not a splash; its controls wait for React.
      assert.equal(await before.page.locator('.prerendered').count(), 1);
      assert.ok(await before.page.getByRole('button', { name: control }).isDisabled());
      assert.equal(await before.page.locator('button:enabled, input:enabled').count(), 0, 'nothing to type into or tap before React');
      const painted = await layout(before.page);
      await before.context.close();

      const context = await run.browser.newContext(still());
      const page = await context.newPage();
      // React adopts the markup as it is: a mismatch would be logged (and redrawn).
      const logged: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') logged.push(message.text());
      });
      page.on('pageerror', (error) => logged.push(error.message));
      await page.goto(path);
      await page.getByRole('button', { name: control }).and(page.locator(':enabled')).waitFor();
      assert.equal(await page.locator('.prerendered, [data-until-js]').count(), 0, 'React took the page over');
      assert.deepEqual(await layout(page), painted);
      // The session check has answered (signed out), and changed nothing.
      await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => entry.name.endsWith('/api/v1/auth/session')));
      assert.deepEqual(await layout(page), painted);
      assert.deepEqual(logged, []);
      await context.close();
    });
  }

  it('every other route gets the neutral splash, not a prerendered page', async () => {
    for (const path of ['/app/dashboard', '/contact', '/no-such-page']) {
      const html = await (await fetch(`${run.server.url}${path}`)).text();
      assert.match(html, /class="boot"/, path);
      assert.doesNotMatch(html, /class="prerendered"/, path);
    }
    assert.match(await (await fetch(`${run.server.url}/login`)).text(), /class="prerendered"/);
  });
});
