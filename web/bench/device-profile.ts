/**
 * Where a screen's time goes on the ten-year device (issue 30): the device bench's account and
 * throttling, with the Chrome DevTools Protocol profiler around each screen's load (first
 * sync, warm dashboard / tax year / history, offline cold start), printing the functions with
 * the most self time and the time to the screen's mark. A tool for finding work, not a figure:
 * the profiler itself slows the page.
 *
 *   npx tsx bench/device-profile.ts            (PROFILE_TOP: how many functions, default 25)
 *
 * PROFILE_TRACE=1: a Chrome trace instead of the CPU profile, summed as main-thread self time
 * per trace event (script compile and evaluation, style, layout, paint, parsing, IndexedDB…):
 * the CPU profile lumps everything that is not JavaScript into "(program)". PROFILE_SCREENS:
 * which screens to measure (comma-separated labels, e.g. "offline cold start"; default all but
 * the first sync, which runs either way to fill the device).
 *
 * Build the web app with `npx vite build --minify false` first for readable names.
 * Dedicated workers are throttled as in the device bench (bench/throttle-workers.ts); the CPU
 * profile is the main thread's, the trace's sums are the main thread's (the worker's in the file).
 */
import { existsSync, writeFileSync } from 'node:fs';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { goOffline, launchBrowser, phone, releaseBinary, startServer, testBinary } from '../e2e/harness';
import { MARKS_SCRIPT, seedAccount, waitDrawn, waitMark } from './device-ten-years';
import { distProxy } from './dist-proxy';
import { report } from './report';
import { throttleWorkers } from './throttle-workers';

const TOP = Number(process.env.PROFILE_TOP ?? 25);
const TRACE = process.env.PROFILE_TRACE === '1';
const SCREENS = process.env.PROFILE_SCREENS?.split(',').map((label) => label.trim());

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function (ms), most first. */
function selfTimes(profile: Profile): [string, number][] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    const file = frame.url.split('/').pop() ?? '';
    const name = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; beginData?: unknown };
}

/**
 * Self time (ms) per event name on the page's main thread, most first: of the tasks that started
 * before the screen's mark (`bench:<mark>`, see MARKS_SCRIPT) when one is named (null: the whole
 * trace, as for the first sync until the dashboard is still). What a screen renders after its
 * figure shows (the tax year's sections below it) is not in its figure.
 */
function traceSelfTimes(events: TraceEvent[], name: string | null): [string, number][] {
  const mark = name === null ? undefined : events.find((event) => event.name === `bench:${name}`);
  const main = mark ?? events.find((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  const before = mark?.ts ?? Infinity;
  const complete = events.filter((event) => event.ph === 'X' && event.dur !== undefined && main && event.pid === main.pid && event.tid === main.tid && event.ts < before);
  complete.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const totals = new Map<string, number>();
  const stack: { end: number; name: string }[] = [];
  for (const event of complete) {
    while (stack.length > 0 && stack.at(-1)!.end <= event.ts) stack.pop();
    const parent = stack.at(-1);
    // The parent's self time loses what this event covers.
    if (parent) totals.set(parent.name, (totals.get(parent.name) ?? 0) - event.dur! / 1000);
    totals.set(event.name, (totals.get(event.name) ?? 0) + event.dur! / 1000);
    stack.push({ end: event.ts + event.dur!, name: event.name });
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}

async function traced(browser: Browser, page: Page, label: string, mark: string | null, run: () => Promise<number>) {
  // timeline.stack: where a script forced a style and layout ("Forced layouts" below);
  // blink.user_timing: the screen's mark.
  const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.stack', 'v8', 'v8.execute', 'blink', 'blink.user_timing', 'IndexedDB', 'loading'];
  await browser.startTracing(page, { categories });
  const at = await run();
  const buffer = await browser.stopTracing();
  writeFileSync(`/tmp/device-trace-${label.replace(/\W+/g, '-')}.json`, buffer);
  const { traceEvents } = JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] };
  const times = traceSelfTimes(traceEvents, mark);
  const busy = times.reduce((sum, [, t]) => sum + t, 0);
  report(`\n## ${label}: mark at ${Math.round(at)} ms, ${Math.round(busy)} ms of main-thread trace events before it`);
  for (const [name, t] of times.slice(0, TOP)) report(`${t.toFixed(1).padStart(8)} ms  ${name}`);
  // A layout a script asked for mid-task (reading a size or the scroll position of a page still
  // being changed) may be one the next frame does again.
  const forced = traceEvents.filter((event) => event.name === 'Layout' && event.ph === 'X' && (event.args as { beginData?: { stackTrace?: unknown[] } } | undefined)?.beginData?.stackTrace);
  report(`Forced layouts: ${forced.length}, ${Math.round(forced.reduce((sum, event) => sum + (event.dur ?? 0), 0) / 1000)} ms`);
  for (const event of forced) {
    const stack = (event.args as { beginData: { stackTrace: { functionName: string; url: string; lineNumber: number }[] } }).beginData.stackTrace;
    report(`${((event.dur ?? 0) / 1000).toFixed(1).padStart(8)} ms  ${stack.slice(0, 4).map((frame) => `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}`).join(' < ')}`);
  }
}

async function profiled(cdp: CDPSession, label: string, run: () => Promise<number>) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const at = await run();
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
  writeFileSync(`/tmp/device-profile-${label.replace(/\W+/g, '-')}.cpuprofile`, JSON.stringify(profile));
  const times = selfTimes(profile);
  const busy = times.filter(([name]) => !name.startsWith('(idle)') && !name.startsWith('(program)')).reduce((sum, [, t]) => sum + t, 0);
  report(`\n## ${label}: mark at ${Math.round(at)} ms, ${Math.round(busy)} ms of script sampled`);
  for (const [name, t] of times.slice(0, TOP)) report(`${t.toFixed(1).padStart(8)} ms  ${name}`);
}

const binary = process.env.DT_BINARY ?? (existsSync(releaseBinary) ? releaseBinary : testBinary);
const browser = await launchBrowser();
const workers = throttleWorkers(4);
const real = await startServer({}, binary);
// PROFILE_DIST: serve that web/dist in front of the binary's API (a binary built elsewhere).
const server = process.env.PROFILE_DIST ? { ...real, url: (await distProxy(process.env.PROFILE_DIST, real.url)).url } : real;
try {
  const email = await seedAccount(browser, server, 'ten years');
  const context = await browser.newContext({ ...phone, baseURL: server.url });
  await context.addInitScript(MARKS_SCRIPT);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('van-route-42');
  // The profiler or the trace around one screen's load, when that screen is asked for.
  const measure = async (label: string, mark: string | null, run: () => Promise<number>) => {
    if (SCREENS ? !SCREENS.includes(label) : label === 'first sync' && TRACE) return run();
    return TRACE ? traced(browser, page, label, mark, run) : profiled(cdp, label, run);
  };
  // Until the dashboard has drawn what the sync stored (the bench's "first sync drawn").
  await measure('first sync', null, async () => {
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await waitDrawn(page);
    return waitMark(page, 'synced');
  });
  // Only the first sync asked for: the screens after it would run for nothing.
  const screensToo = !SCREENS?.every((label) => label === 'first sync');
  if (screensToo) await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  for (const [label, path, mark] of screensToo
    ? ([
        ['dashboard warm', '/app/dashboard', 'stats'],
        ['tax year warm', '/app/tax', 'tax'],
        ['history warm', '/app/history', 'history'],
      ] as const)
    : []) {
    await page.goto('/app/more');
    await measure(label, mark, async () => {
      await page.goto(path);
      return waitMark(page, mark);
    });
  }
  if (screensToo) {
    await page.goto('/app/dashboard');
    await waitMark(page, 'stats');
    await goOffline(context);
    await measure('offline cold start', 'stats', async () => {
      await page.reload();
      return waitMark(page, 'stats');
    });
  }
} finally {
  workers.stop();
  await browser.close();
  await real.stop();
  process.exit(0);
}

