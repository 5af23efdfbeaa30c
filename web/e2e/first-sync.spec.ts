// [30] A first sync of a few thousand records onto a fresh device, interrupted by reloads while
// it runs, in Chromium against the real binary: it resumes, and the device ends holding every
// record once, on screen and in IndexedDB. (The random interruption points, between and inside
// pages, are src/sync/first-sync.test.ts; this is the real browser, database and server.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { logIn, phone, serverAndBrowser, signUp, uniqueEmail } from './harness';

const run = serverAndBrowser();

const DAYS = 3_600;
const EXPENSES = 400;

/** Rows in `store` of the signed-in user's device database; -1 before the app has made it. */
async function stored(page: Page, userId: string, store: string): Promise<number> {
  // A string: tsx would wrap named inner functions in a helper the page lacks.
  return (await page.evaluate(`(async () => {
    const name = 'delivery-tracker-${userId}';
    // Never open (and so create) a database the app has not made yet.
    if (!(await indexedDB.databases()).some((d) => d.name === name)) return -1;
    return await new Promise((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('${store}')) { db.close(); resolve(-1); return; }
        const count = db.transaction('${store}').objectStore('${store}').count();
        count.onsuccess = () => { db.close(); resolve(count.result); };
        count.onerror = () => { db.close(); reject(count.error); };
      };
    });
  })()`)) as number;
}

describe('an interrupted first sync', () => {
  it('resumes after reloads in the middle and ends with every record once, on screen and in IndexedDB', async () => {
    const email = uniqueEmail('first-sync');
    const seeder = await run.browser.newContext({ ...phone, baseURL: run.server.url, serviceWorkers: 'block' });
    const seed = await seeder.newPage();
    await signUp(seed, email);
    await seed.waitForURL('**/app/dashboard');
    const start = Date.UTC(2016, 0, 3);
    const day = (i: number) => new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    const mutations = [
      ...Array.from({ length: DAYS }, (_, i) => ({
        id: crypto.randomUUID(),
        name: 'entry.put',
        args: { id: crypto.randomUUID(), date: day(i), stops: 100 + (i % 40), extra: 0, notes: '', total: (100 + (i % 40)) * 198 },
      })),
      ...Array.from({ length: EXPENSES }, (_, i) => ({
        id: crypto.randomUUID(),
        name: 'expense.put',
        args: { id: crypto.randomUUID(), date: day(i * 9), amount: 1_000 + i, category: 'phone', note: '', courierId: null, vehicleId: null, repeat: 'once', repeatUntil: null, receipts: [] },
      })),
    ];
    const userId = await seed.evaluate(
      async ({ all }) => {
        for (let i = 0; i < all.length; i += 500) {
          const response = await fetch('/api/v1/sync/push', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: 'seed', mutations: all.slice(i, i + 500) }) });
          const reply = (await response.json()) as { results: { status: string }[] };
          if (!reply.results.every((r) => r.status === 'applied')) throw new Error(JSON.stringify(reply));
        }
        return ((await (await fetch('/api/v1/auth/session')).json()) as { user: { id: string } }).user.id;
      },
      { all: mutations },
    );
    await seeder.close();

    // The new device signs in and starts its first sync; reloaded once as soon as the sign-in
    // lands, and again once pages have arrived but not all (a first sync of this size stores its
    // pages in one transaction at the end, so this reload drops the pages in hand).
    const { browser, server } = run;
    const context = await browser.newContext({ ...phone, baseURL: server.url });
    const page = await context.newPage();
    await logIn(page, email, 'van-route-42');
    await page.waitForURL('**/app/dashboard');
    const laterPage = page.waitForResponse((response) => /\/api\/v1\/sync\/pull\?cursor=[1-9]/.test(response.url()));
    await page.reload();
    await laterPage;
    await page.reload();

    // Everything arrives, once: the dashboard's link counts the days on the device.
    await page.getByRole('link', { name: `View all entries (${DAYS.toLocaleString('en-GB')})` }).waitFor({ timeout: 120_000 });
    assert.equal(await stored(page, userId, 'entries'), DAYS);
    assert.equal(await stored(page, userId, 'expenses'), EXPENSES);
    await page.getByRole('link', { name: /View all entries/ }).click();
    await page.getByText(`${DAYS.toLocaleString('en-GB')} entries, newest first`).waitFor();
    await context.close();
  });
});
