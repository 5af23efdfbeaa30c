/**
 * Ten years of daily entries (3,650) on a phone-sized Chromium against the release binary:
 * how long the history takes to show, how many rows are really in the page, how smooth a
 * scroll to the bottom is, and how long the summaries (tables + chart) take. Prints figures;
 * asserts nothing (shared machines are noisy; see docs/development.md, "Tests and benchmarks").
 *
 *   npx tsx bench/history-3650.ts     (after `make release`)
 */
import { launchBrowser, newPage, releaseBinary, signUp, startServer, uniqueEmail } from '../e2e/harness';
import { ms, report } from './report';

const DAYS = 3_650;
const BATCH = 500;

async function main() {
  const server = await startServer({}, releaseBinary);
  const browser = await launchBrowser();
  try {
    const { context, page } = await newPage(browser, server);
    await signUp(page, uniqueEmail('bench'), 'van-route-42', 'Bench Driver');
    await page.waitForURL('**/app/dashboard');

    // Ten years of days, pushed straight to the server as another device would.
    await page.evaluate(
      async ({ days, batch }) => {
        const start = Date.UTC(2016, 0, 3);
        const all = Array.from({ length: days }, (_, i) => {
          const date = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
          const stops = 80 + (i % 60);
          return { id: crypto.randomUUID(), name: 'entry.put', args: { id: crypto.randomUUID(), date, stops, extra: i % 7 === 0 ? 250 : 0, notes: i % 5 === 0 ? 'Depot run' : '', total: stops * 198 } };
        });
        for (let i = 0; i < all.length; i += batch) {
          const response = await fetch('/api/v1/sync/push', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ clientId: 'bench', mutations: all.slice(i, i + batch) }),
          });
          if (!response.ok) throw new Error(`push failed: ${response.status}`);
        }
      },
      { days: DAYS, batch: BATCH },
    );

    // The device pulls them all into IndexedDB (the 30 s pull, or a poke, or this reload).
    const pullStart = Date.now();
    await page.reload();
    await page.getByRole('link', { name: `View all entries (${DAYS.toLocaleString('en-GB')})` }).or(page.getByRole('link', { name: `View all entries (${DAYS})` })).waitFor({ timeout: 60_000 });
    const pulled = Date.now() - pullStart;

    // History with everything on the device: navigation to first card.
    const historyStart = Date.now();
    await page.getByRole('link', { name: /View all entries/ }).click();
    await page.getByRole('list', { name: 'Entries' }).getByRole('article').first().waitFor();
    const historyShown = Date.now() - historyStart;
    const rowsInPage = await page.getByRole('list', { name: 'Entries' }).getByRole('article').count();

    // Scroll to the bottom in steps, recording frame gaps.
    // A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
    const frames = (await page.evaluate(`(async () => {
      const gaps = [];
      let last = performance.now();
      let running = true;
      const tick = (now) => {
        gaps.push(now - last);
        last = now;
        if (running) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      // Re-read the height: rows measured on the way replace their estimated size.
      for (let y = 0; y < document.documentElement.scrollHeight; y += 400) {
        window.scrollTo(0, y);
        await new Promise((resolve) => requestAnimationFrame(() => resolve(null)));
      }
      running = false;
      gaps.sort((a, b) => a - b);
      const height = document.documentElement.scrollHeight;
      return { count: gaps.length, p50: gaps[Math.floor(gaps.length / 2)] ?? 0, p95: gaps[Math.floor(gaps.length * 0.95)] ?? 0, max: gaps.at(-1) ?? 0, height };
    })()`)) as { count: number; p50: number; p95: number; max: number; height: number };
    const lastVisible = await page.getByRole('list', { name: 'Entries' }).getByRole('article').last().getAttribute('aria-label');

    const summariesStart = Date.now();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('link', { name: 'Summaries' }).click();
    await page.getByRole('region', { name: 'Monthly summary' }).waitFor();
    await page.locator('canvas').first().waitFor();
    const summariesShown = Date.now() - summariesStart;

    const exportStart = Date.now();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    await download.path();
    const exported = Date.now() - exportStart;

    report(`history with ${DAYS} entries (390×844 Chromium, release binary)`);
    report(`  pull of ${DAYS} entries into IndexedDB, from reload: ${ms(pulled)}`);
    report(`  history first card after navigation:              ${ms(historyShown)}`);
    report(`  entry cards in the page (virtualised):             ${rowsInPage} of ${DAYS}`);
    report(`  scroll to bottom (${(frames.height / 1000).toFixed(0)}k px, ${frames.count} frames): p50 ${ms(frames.p50)}, p95 ${ms(frames.p95)}, worst ${ms(frames.max)}; last card: ${lastVisible}`);
    report(`  summaries (520+ weeks, chart) shown:               ${ms(summariesShown)}`);
    report(`  CSV export of ${DAYS} rows downloaded:             ${ms(exported)}`);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}

void main();
