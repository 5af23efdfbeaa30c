/**
 * The device with ten years of data (issue 30), in Chromium at 390×844 with 4× CPU throttling
 * (CDP Emulation.setCPUThrottlingRate), against the real server:
 * - first sync onto a fresh device (a new browser context signing in), until the sync status
 *   says synced; "first sync drawn": until it says so and the dashboard has drawn what the sync
 *   stored (its last change before it stays still for QUIET_MS);
 * - offline cold start: service worker installed, network off, reload, until the stat cards
 *   show figures;
 * - warm dashboard, tax year and history (data on the device, shell cached): load to first figure.
 * The ten-year account holds 3,650 days over 2 couriers, 500 expenses, 2,000 mileage logs and
 * 100 statement checks (6,255 records with its couriers, cards and van), pushed through the
 * server's push API as another device would. The empty account runs the same steps, as the
 * reference measured in the same run. Rounds interleave accounts (and builds, see below); it
 * prints min / median / max and ratios of medians. Asserts nothing (shared machines are noisy;
 * see docs/development.md, "Tests and benchmarks").
 *
 *   npx tsx bench/device-ten-years.ts
 *
 * BENCH_ROUNDS (default 3). The binary: the release one when built (`make bench`), else the debug
 * one (a debug binary serves web/dist from the worktree it was built in). BENCH_BASELINE_BIN: a
 * second binary (e.g. main's debug build, which serves main's web/dist) measured in the same
 * rounds; each figure then also prints ours ÷ baseline. BENCH_DIST / BENCH_BASELINE_DIST: a
 * built web app folder served in front of that binary instead of its own (bench/dist-proxy.ts;
 * with only BENCH_BASELINE_DIST, the baseline runs our binary with that web app): two web builds
 * against one server build. BENCH_PULL_DELAY_MS (with BENCH_DIST): each pull page's answer held
 * back that long, as on a mobile network.
 *
 * BENCH_ONLY=screens skips nothing it needs (the first sync fills the device) but leaves the
 * first sync out of the table; BENCH_ONLY=first-sync measures only the first sync. BENCH_CPU=1
 * also records a Chrome trace around each screen's load and prints "<figure> cpu": the page's
 * main-thread CPU time (trace tdur) from the load to its mark, unthrottled (see THROTTLE); for
 * the first sync, "first sync cpu" is all of it from the Login press until the dashboard has
 * drawn the records and stayed still for QUIET_MS. Wall times on a machine other jobs share move with their
 * load; the CPU time the page spends moves far less, so it tells two web builds apart where the
 * wall times overlap. (The wall figures of a BENCH_CPU run are not the 4× goal figures.) The
 * page's dedicated workers (the sync's pull worker) count too: their threads' CPU time is added
 * to the main thread's; "first sync main cpu" is the main thread's alone (what the screens wait on).
 *
 * Workers are throttled as the main thread is (bench/throttle-workers.ts): CDP's throttling
 * slows only the main thread, so each dedicated worker thread goes into a cgroup allowed 1/rate
 * of a CPU. Work moved into a worker then costs what it would on a phone whose every core is
 * slow, not a third of it. (Needs root for the cgroup; it says when it cannot.) The service
 * worker is not throttled (nor before this): both builds install the same offline cache in it.
 */
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { goOffline, launchBrowser, phone, releaseBinary, startServer, testBinary, uniqueEmail, type RunningServer } from '../e2e/harness';
import { distProxy } from './dist-proxy';
import { ms, report } from './report';
import { throttleWorkers } from './throttle-workers';

const CPU = process.env.BENCH_CPU === '1';
/**
 * 4× by default. A trace counts most of a throttled page's waiting as its thread's own time
 * (at 4×, thread time came to 0.72 of wall time, not 0.25), and other jobs on the machine stretch
 * that: with BENCH_CPU the page runs unthrottled (BENCH_THROTTLE to say otherwise), so its CPU
 * time is the work itself.
 */
const THROTTLE = Number(process.env.BENCH_THROTTLE ?? (CPU ? 1 : 4));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** With BENCH_DIST: each pull page's answer held back this long (a mobile network's round trip). */
const PULL_DELAY_MS = Number(process.env.BENCH_PULL_DELAY_MS ?? 0);
const PASSWORD = 'van-route-42';
const PUSH_BATCH = 500;
/** How long the dashboard must stay unchanged after a first sync for it to count as drawn. */
const QUIET_MS = 2_000;

/** What the ten-year account holds. */
const TEN_YEARS = { days: 3_650, expenses: 500, mileage: 2_000, checks: 100 };

type Account = 'ten years' | 'empty';
interface Build {
  label: string;
  server: RunningServer;
  accounts: Record<Account, string>;
}

const SCREENS_ONLY = process.env.BENCH_ONLY === 'screens';
const FIRST_SYNC_ONLY = process.env.BENCH_ONLY === 'first-sync';
const SCREENS = ['offline cold start', 'dashboard warm', 'tax year warm', 'history warm'] as const;
const FIGURES = [
  ...(SCREENS_ONLY ? [] : ['first sync' as const, 'first sync drawn' as const, ...(CPU ? ['first sync cpu' as const, 'first sync main cpu' as const] : [])]),
  ...(FIRST_SYNC_ONLY ? [] : SCREENS),
  ...(CPU && !FIRST_SYNC_ONLY ? SCREENS.map((screen) => `${screen} cpu` as const) : []),
] as const;
type Figure = 'first sync' | 'first sync drawn' | 'first sync cpu' | 'first sync main cpu' | (typeof SCREENS)[number] | `${(typeof SCREENS)[number]} cpu`;

/**
 * Marks, in page time (ms since the navigation started), when each screen first shows a figure,
 * and when the sync status first reads "synced" after having read "syncing" (or with the time of
 * a sync, for a build whose badge says it: a sync may end before the screen could draw it). A MutationObserver
 * installed before the app's own scripts: no polling from outside the throttled page.
 * A string: tsx would wrap named inner functions in a helper the page lacks.
 */
export const MARKS_SCRIPT = `(() => {
  const marks = (window.__benchMarks = {});
  const at = (window.__benchAt = {});
  let syncing = false;
  const check = (records = []) => {
    const now = performance.now();
    const badge = document.querySelector('aside[aria-label="Sync status"]');
    const state = badge && badge.getAttribute('data-state');
    if (state === 'syncing') syncing = true;
    // A first sync over before the screen drew it syncing shows synced with the time of that sync.
    if ((syncing || (badge && badge.hasAttribute('data-last-sync'))) && state === 'synced' && marks.synced === undefined) { marks.synced = now; at.synced = Date.now(); performance.mark('bench:synced'); }
    // The screen's last change so far: the first sync's "drawn" is the last before it goes quiet.
    const main = document.querySelector('main');
    if (main && records.some((record) => main.contains(record.target))) at.drawn = Date.now();
    const cards = document.querySelectorAll('ul[aria-label="Your stats"] li');
    const last = cards[cards.length - 1];
    const value = last && last.children[1] && last.children[1].textContent;
    if (value && value !== '–' && marks.stats === undefined) set('stats', now);
    if (marks.tax === undefined && document.querySelector('dl[aria-label="The year in figures"] dd')) set('tax', now);
    if (marks.history === undefined && document.querySelector('[aria-label="Entries"] article')) set('history', now);
  };
  // Also a user-timing mark, which a Chrome trace records (BENCH_CPU).
  const set = (name, now) => { marks[name] = now; performance.mark('bench:' + name); };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})()`;

export async function waitMark(page: Page, mark: string, timeout = 120_000): Promise<number> {
  try {
    const handle = await page.waitForFunction((name) => (window as unknown as { __benchMarks?: Record<string, number> }).__benchMarks?.[name], mark, { timeout, polling: 100 });
    return (await handle.jsonValue()) as number;
  } catch (error) {
    await page.screenshot({ path: `/tmp/device-ten-years-${mark}.png` });
    throw new Error(`no "${mark}" on ${page.url()} (screenshot in /tmp/device-ten-years-${mark}.png)`, { cause: error });
  }
}

/**
 * After a first sync, waits until it is "synced" and the dashboard has drawn what it stored (the
 * screens read and draw the records once the sync has stored them): `drawn` is the screen's last
 * change before it stays still for QUIET_MS, or the sync's end when the screen drew everything
 * before it. Both in wall-clock time (the page's Date.now).
 */
export async function waitDrawn(page: Page): Promise<{ synced: number; drawn: number }> {
  await waitMark(page, 'synced');
  const quiet = await page.waitForFunction(
    (quiet) => {
      const at = (window as unknown as { __benchAt: Record<string, number> }).__benchAt;
      return Date.now() - Math.max(at.synced!, at.drawn ?? 0) > quiet && at;
    },
    QUIET_MS,
    { polling: 100, timeout: 120_000 },
  );
  const { synced, drawn } = (await quiet.jsonValue()) as Record<string, number>;
  return { synced: synced!, drawn: Math.max(synced!, drawn ?? 0) };
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  tdur?: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/**
 * The main-thread CPU time (ms) of the page's tasks that started before the mark `bench:<mark>`
 * (with `all`, of every task the trace holds): the renderer thread that recorded the mark, its
 * top-level tasks' thread time (tdur). With `all`, the page's dedicated workers' too (the same
 * process's "DedicatedWorker thread"s): work moved there is still the phone's work.
 */
export function cpuToMark(events: TraceEvent[], mark: string, { all = false, workers: withWorkers = true } = {}): number {
  const at = events.find((event) => event.name === `bench:${mark}`);
  if (!at) throw new Error(`the trace has no bench:${mark} mark`);
  const workers = all && withWorkers
    ? events.filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.pid === at.pid && event.args?.name === 'DedicatedWorker thread').map((event) => event.tid)
    : [];
  let cpu = 0;
  for (const tid of [at.tid, ...workers]) {
    const tasks = events.filter((event) => event.ph === 'X' && event.pid === at.pid && event.tid === tid && event.tdur !== undefined && (all || event.ts < at.ts));
    tasks.sort((a, b) => a.ts - b.ts);
    let end = 0;
    for (const task of tasks) {
      if (task.ts < end) continue; // inside a task already counted
      cpu += task.tdur!;
      end = task.ts + (task.dur ?? 0);
    }
  }
  return cpu / 1000;
}

/**
 * `load` (which resolves to the mark's page time), and with BENCH_CPU the CPU time to that mark
 * (`all`: of everything `load` waited for, e.g. a first sync until its screen is still).
 */
async function measured<T>(browser: Browser, page: Page, mark: string, load: () => Promise<T>, { all = false } = {}): Promise<{ wall: T; cpu?: number; mainCpu?: number }> {
  if (!CPU) return { wall: await load() };
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] });
  let wall: T;
  try {
    wall = await load();
  } catch (error) {
    await browser.stopTracing();
    throw error;
  }
  const buffer = await browser.stopTracing();
  const { traceEvents } = JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] };
  return { wall, cpu: cpuToMark(traceEvents, mark, { all }), mainCpu: cpuToMark(traceEvents, mark, { all, workers: false }) };
}

async function throttled(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  return page;
}

interface Mutation {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** The ten-year account's records as push mutations. */
export function tenYearsOfMutations(counts = TEN_YEARS): Mutation[] {
  const id = () => crypto.randomUUID();
  // Ten years up to yesterday: this week, this tax year and the history's top are all filled.
  const first = Date.now() - (counts.days + 1) * 86_400_000;
  const day = (i: number) => new Date(first + i * 86_400_000).toISOString().slice(0, 10);
  const couriers = [id(), id()];
  const cards = [id(), id()];
  const van = id();
  const all: Mutation[] = [];
  const put = (name: string, args: Record<string, unknown>) => all.push({ id: id(), name, args });
  couriers.forEach((courier, i) => {
    put('courier.put', { id: courier, name: i === 0 ? 'Evri' : 'DPD', colour: i === 0 ? '#0070c9' : '#dc0032', periodKind: 'weekly', periodAnchor: '2016-01-03', arrearsWeeks: 0 });
    put('rateCard.put', { id: cards[i], courierId: courier, validFrom: '2000-01-01', label: '', perStop: [{ stopCount: 110, rate: 198 }, { rate: 148 }], perParcel: null, parcelCapPerStop: null, perCollection: null, perFailed: null, dayRate: null, hourly: null, peaks: [] });
  });
  put('vehicle.put', { id: van, name: 'Transit', type: 'carVan', method: 'flatRate', commuteMiles: 0 });
  for (let i = 0; i < counts.days; i += 1) {
    const stops = 80 + (i % 60);
    const extra = i % 7 === 0 ? 250 : 0;
    const c = i % 2;
    put('entry.put', { id: id(), date: day(i), stops, extra, notes: i % 5 === 0 ? 'Depot run' : '', total: stops * 198 + extra, courierId: couriers[c], rateCardId: cards[c], parcels: null, collections: null, failed: null, startTime: null, finishTime: null, separateShift: false });
  }
  for (let i = 0; i < counts.expenses; i += 1) {
    put('expense.put', { id: id(), date: day(i * 7), amount: 1_000 + (i % 50) * 37, category: i % 3 === 0 ? 'fuel' : 'phone', note: i % 4 === 0 ? 'Shell' : '', courierId: null, vehicleId: i % 3 === 0 ? van : null, repeat: 'once', repeatUntil: null, receipts: [] });
  }
  for (let i = 0; i < counts.mileage; i += 1) {
    put('mileage.put', { id: id(), date: day(Math.floor(i * 1.8)), vehicleId: van, courierId: null, odometerStart: null, odometerEnd: null, businessMiles: 40 + (i % 30), commuteMiles: 0, note: '' });
  }
  for (let i = 0; i < counts.checks; i += 1) {
    put('invoice.put', { id: id(), courierId: couriers[i % 2], periodStart: day(i * 35), periodEnd: day(i * 35 + 6), paid: 98_000 + i, stops: null, parcels: null, collections: null, deductions: null, reference: `ST-${i}`, note: '', status: 'unchecked' });
  }
  return all;
}

/** Signs up a new account in a throwaway context (ten years pushed into it when asked); returns its e-mail. */
export async function seedAccount(browser: Browser, server: RunningServer, account: Account): Promise<string> {
  const email = uniqueEmail(account === 'empty' ? 'bench-empty' : 'bench-ten');
  const context = await browser.newContext({ ...phone, baseURL: server.url, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.waitForURL('**/app/dashboard');
  if (account === 'ten years') {
    const all = tenYearsOfMutations();
    // Pushed from the page (its session cookie), as another device would.
    await page.evaluate(
      async ({ all, batch }) => {
        for (let i = 0; i < all.length; i += batch) {
          const response = await fetch('/api/v1/sync/push', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ clientId: 'bench-seed', mutations: all.slice(i, i + batch) }),
          });
          if (!response.ok) throw new Error(`push failed: ${response.status} ${await response.text()}`);
          const reply = (await response.json()) as { results: { status: string }[] };
          const refused = reply.results.find((r) => r.status !== 'applied');
          if (refused) throw new Error(`push refused: ${JSON.stringify(refused)}`);
        }
      },
      { all, batch: PUSH_BATCH },
    );
    const pushed = all.length;
    report(`  ${server.url}: seeded ${pushed.toLocaleString('en-GB')} records (and the starter courier and card)`);
  }
  await context.close();
  return email;
}

/** One round for one account on one build: the five figures (ms). */
async function round(browser: Browser, build: Build, account: Account): Promise<Partial<Record<Figure, number>>> {
  const context = await browser.newContext({ ...phone, baseURL: build.server.url });
  await context.addInitScript(MARKS_SCRIPT);
  const figures: Partial<Record<Figure, number>> = {};
  try {
    const page = await throttled(context);
    // First sync: from the Login press (page time) to "synced".
    await page.goto('/login');
    await page.getByLabel('Email').fill(build.accounts[account]);
    await page.getByLabel('Password').fill(PASSWORD);
    // Wall-clock (page's Date.now), in case signing in loads a new document.
    const pressed = await page.evaluate(() => Date.now());
    const first = await measured(
      browser,
      page,
      'synced',
      async () => {
        await page.getByRole('button', { name: 'Login', exact: true }).click();
        return waitDrawn(page);
      },
      { all: true },
    );
    if (!SCREENS_ONLY) {
      figures['first sync'] = first.wall.synced - pressed;
      figures['first sync drawn'] = first.wall.drawn - pressed;
      if (first.cpu !== undefined) figures['first sync cpu'] = first.cpu;
      if (first.mainCpu !== undefined) figures['first sync main cpu'] = first.mainCpu;
    }
    if (FIRST_SYNC_ONLY) return figures;
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });

    // Warm screens: each loaded afresh with the data and the shell already on the device.
    const warm: [(typeof SCREENS)[number], string, string][] = [
      ['dashboard warm', '/app/dashboard', 'stats'],
      ['tax year warm', '/app/tax', 'tax'],
      ['history warm', '/app/history', 'history'],
    ];
    const record = (figure: (typeof SCREENS)[number], { wall, cpu }: { wall: number; cpu?: number }) => {
      figures[figure] = wall;
      if (cpu !== undefined) figures[`${figure} cpu`] = cpu;
    };
    for (const [figure, path, mark] of warm) {
      if (account === 'empty' && mark !== 'stats') continue;
      record(
        figure,
        await measured(browser, page, mark, async () => {
          await page.goto(path);
          return waitMark(page, mark);
        }),
      );
    }

    // Offline cold start.
    await page.goto('/app/dashboard');
    await waitMark(page, 'stats');
    await goOffline(context);
    record(
      'offline cold start',
      await measured(browser, page, 'stats', async () => {
        await page.reload();
        return waitMark(page, 'stats');
      }),
    );
  } finally {
    await context.close();
  }
  return figures;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const binary = existsSync(releaseBinary) ? releaseBinary : testBinary;
  const baselineBinary = process.env.BENCH_BASELINE_BIN;
  const browser = await launchBrowser();
  const workers = throttleWorkers(THROTTLE);
  const builds: Build[] = [];
  try {
    const dists: Record<string, string | undefined> = { ours: process.env.BENCH_DIST, baseline: process.env.BENCH_BASELINE_DIST };
    const builds_ = [['ours', binary], ...(baselineBinary || dists.baseline ? [['baseline', baselineBinary ?? binary]] : [])] as [string, string][];
    for (const [label, path] of builds_) {
      const real = await startServer({}, path);
      const dist = dists[label];
      const proxy = dist ? await distProxy(dist, real.url, { pullDelayMs: PULL_DELAY_MS }) : null;
      const server: RunningServer = proxy ? { ...real, url: proxy.url, stop: async () => (proxy.close(), real.stop()) } : real;
      builds.push({ label, server, accounts: {} as Record<Account, string> });
      report(`${label}: ${path}${dist ? ` with the web app of ${dist}` : ''}`);
      for (const account of ['ten years', 'empty'] as const) builds.at(-1)!.accounts[account] = await seedAccount(browser, server, account);
    }

    const results = new Map<string, number[]>();
    const key = (build: string, account: Account, figure: Figure) => `${build}|${account}|${figure}`;
    for (let r = 0; r < ROUNDS; r += 1) {
      for (const account of ['ten years', 'empty'] as const) {
        for (const build of builds) {
          const before = workers.moved;
          const figures = await round(browser, build, account);
          const throttled = workers.moved - before;
          for (const [figure, value] of Object.entries(figures) as [Figure, number][]) {
            const k = key(build.label, account, figure);
            results.set(k, [...(results.get(k) ?? []), value]);
          }
          report(`  round ${r + 1}, ${build.label}, ${account}: ${Object.entries(figures).map(([f, v]) => `${f} ${ms(v)}`).join(', ')}${throttled ? ` (${throttled} worker${throttled > 1 ? 's' : ''} throttled)` : ''}`);
        }
      }
    }

    report(`device with ten years (390×844 Chromium, ${THROTTLE}× CPU throttling, ${ROUNDS} rounds): min / median / max`);
    for (const build of builds) {
      for (const account of ['ten years', 'empty'] as const) {
        for (const figure of FIGURES) {
          const values = results.get(key(build.label, account, figure));
          if (!values) continue;
          const mid = median(values);
          const notes: string[] = [];
          const empty = results.get(key(build.label, 'empty', figure));
          if (account === 'ten years' && empty) notes.push(`${(mid / median(empty)).toFixed(2)}× the empty account`);
          const base = results.get(key('baseline', account, figure));
          if (build.label === 'ours' && base) notes.push(`${(mid / median(base)).toFixed(2)}× baseline`);
          report(`  ${build.label.padEnd(8)} ${account.padEnd(9)} ${figure.padEnd(18)} ${ms(Math.min(...values))} / ${ms(mid)} / ${ms(Math.max(...values))}${notes.length ? `  (${notes.join(', ')})` : ''}`);
        }
      }
    }
    if (THROTTLE > 1) report(`dedicated worker threads throttled ${THROTTLE}× (cgroup): ${workers.moved}`);
  } finally {
    workers.stop();
    await browser.close();
    for (const build of builds) await build.server.stop();
  }
}

// Run as a program (not when a profiling script imports the seeding).
if (process.argv[1]?.endsWith('device-ten-years.ts')) await main();
