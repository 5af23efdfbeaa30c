// The rough edges of issue 15, in Chromium against the real binary at a phone's size: a
// signed-out visit logs no console error (and robots.txt is one), the driver's own save brings up the sync badge, the
// badge never sits on an action, nothing spills out of the history's cards, a long e-mail
// address wraps only at its @ or a dot, and the dialogs are the browser's modal <dialog>.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { addEntry, goOffline, goOnline, newPage, signUp, syncBadge, uniqueEmail, serverAndBrowser } from './harness';

const run = serverAndBrowser();

/** Controls whose right edge passes the content edge of the card around them. */
function spills(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('main button, main a, main input, main select')).flatMap((control) => {
      const card = control.closest('section, article, form, [class*="card"], [class*="panel"]');
      if (!card || control.getBoundingClientRect().width === 0) return [];
      const edge = card.getBoundingClientRect().right - parseFloat(getComputedStyle(card).paddingRight) - parseFloat(getComputedStyle(card).borderRightWidth);
      const over = control.getBoundingClientRect().right - edge;
      return over > 0.5 ? [`${control.textContent?.trim() || control.getAttribute('aria-label')} by ${Math.round(over)} px`] : [];
    }),
  );
}

/** Visible buttons and links the badge's box overlaps. */
function coveredByBadge(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const badge = document.querySelector('aside[aria-label="Sync status"]')!.getBoundingClientRect();
    return Array.from(document.querySelectorAll('main button, main a')).flatMap((control) => {
      const box = control.getBoundingClientRect();
      const overlaps = box.width > 0 && box.left < badge.right && box.right > badge.left && box.top < badge.bottom && box.bottom > badge.top;
      return overlaps ? [control.textContent?.trim() ?? ''] : [];
    });
  });
}

/** Waits until the badge has hidden itself (3 s after synced). */
async function badgeHidden(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('aside[aria-label="Sync status"] [role="status"]')?.textContent === '', undefined, { timeout: 30_000 });
}

describe('rough edges', () => {
  it('a signed-out visit to the landing and login pages logs no console error', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto('/');
    await page.getByRole('link', { name: 'Get Started' }).first().waitFor();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    const session = await page.evaluate(async () => {
      const response = await fetch('/api/v1/auth/session');
      return { status: response.status, body: (await response.json()) as unknown };
    });
    assert.deepEqual(session, { status: 200, body: { user: null } });
    assert.deepEqual(errors, []);
    // A real robots.txt, not the app's HTML.
    const robots = await fetch(`${run.server.url}/robots.txt`);
    assert.match(robots.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(await robots.text(), /^User-agent: \*\n/);
    await context.close();
  });

  it("the driver's own save brings up the badge online, and it never covers an action", async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('badge'));
    await page.waitForURL('**/app/dashboard');
    await page.getByLabel('Date').waitFor();
    await badgeHidden(page);
    await addEntry(page, '2025-03-18', 120, 'Depot');
    await page.waitForFunction(() => (document.querySelector('aside[aria-label="Sync status"] [role="status"]')?.textContent ?? '') !== '');
    assert.match((await syncBadge(page).textContent()) ?? '', /Syncing data\.\.\.|All data synced/);

    // The statement checks put a right-aligned "Check statement" on every period.
    await page.goto('/app/history?view=statements');
    await page.getByRole('button', { name: 'Check statement' }).first().waitFor();
    await goOffline(context);
    await syncBadge(page).getByText('You are offline').waitFor();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    assert.deepEqual(await coveredByBadge(page), [], 'at the end of the page');
    await goOnline(context);
    await context.close();
  });

  it('at 390 px nothing on the history spills out of its card', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('spill'));
    await page.waitForURL('**/app/dashboard');
    await addEntry(page, '2025-03-18', 120, 'Depot');
    await page.goto('/app/history');
    await page.getByRole('button', { name: 'Export JSON' }).waitFor();
    // The entries come from the device's store a moment after the page: measured before they
    // show, the check would pass on an empty list.
    await page.getByRole('article', { name: 'Entry for 18/03/2025' }).waitFor();
    assert.deepEqual(await spills(page), [], 'entries with exports and import');
    const csv = ['Date,Stops,Extra,Total', '17/03/2025,101,2.50,202.50', '19/03/2025,lots,0,100', ''].join('\r\n');
    await page.getByLabel('File to import').setInputFiles({ name: 'a-long-file-name-from-the-old-app-march-2025.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: /^Import \d/ }).waitFor();
    assert.deepEqual(await spills(page), [], 'import preview');
    await context.close();
  });

  it('a long e-mail address on the profile wraps only after its @ or before a dot', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    const email = `a.rather.long.name.for.a.driver.${Date.now().toString(36)}@deliveries-and-parcels.example.co.uk`;
    await signUp(page, email);
    await page.waitForURL('**/app/dashboard');
    await page.goto('/app/profile');
    const shown = page.getByTitle(email);
    await shown.waitFor();
    // Where each line of the address starts, from the boxes of its characters.
    const lineStarts = await shown.evaluate((element) => {
      const text = element.textContent ?? '';
      const starts: number[] = [];
      let offset = 0;
      let top: number | null = null;
      for (const node of Array.from(element.childNodes)) {
        if (node.nodeType !== Node.TEXT_NODE) continue;
        for (let i = 0; i < (node.textContent ?? '').length; i += 1) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rowTop = Math.round(range.getBoundingClientRect().top);
          if (top !== null && rowTop > top) starts.push(offset + i);
          top = rowTop;
        }
        offset += (node.textContent ?? '').length;
      }
      return { text, starts };
    });
    assert.equal(lineStarts.text, email);
    assert.ok(lineStarts.starts.length > 0, 'the address is long enough to wrap at 390 px');
    for (const start of lineStarts.starts) {
      assert.ok(email[start - 1] === '@' || email[start] === '.', `broke at ${email.slice(0, start)}|${email.slice(start)}`);
    }
    assert.deepEqual(await spills(page), []);
    await context.close();
  });

  it('a dialog is a modal <dialog>: the page behind is inert, Escape closes it and focus goes back', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('dialog'));
    await page.waitForURL('**/app/dashboard');
    const syncData = page.getByRole('button', { name: 'Sync Data' });
    await syncData.click();
    const dialog = page.getByRole('alertdialog', { name: 'Data synchronized successfully!' });
    await dialog.waitFor();
    assert.equal(await dialog.evaluate((element) => element.tagName === 'DIALOG' && element.matches(':modal')), true);
    // Tab never reaches the page behind.
    for (let i = 0; i < 4; i += 1) {
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement === document.body || document.activeElement?.closest('dialog') !== null), true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await syncData.evaluate((button) => button === document.activeElement), true);
    await context.close();
  });
});
