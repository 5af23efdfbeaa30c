/**
 * First load of the landing and login pages (issue 15): the JS a first visit downloads, as a
 * ratio to a bare stack (React 19 + react-router + Dexie + workbox-window, bench/bare-stack,
 * built with the same Vite), and Lighthouse (mobile, median of 3) on `/` and `/login` against
 * the release binary. Prints figures; asserts nothing (see docs/development.md, "Tests and benchmarks").
 *
 *   npx tsx bench/first-load.ts     (after `make release`; goals: ratio ≤ 1.15, performance
 *                                    ≥ 95, best practices 100, SEO 100)
 *
 * Lighthouse runs through `npx lighthouse` (LIGHTHOUSE_BIN overrides), with Debian's Chromium.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser, releaseBinary, startServer } from '../e2e/harness';
import { report } from './report';

const web = resolve(import.meta.dirname, '..');
const bareDist = join(web, 'node_modules', '.bare-stack-dist');
const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Gzipped bytes of the JS an index.html loads before anything else: its entry and preloads. */
function staticJs(dist: string): number {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = new Set([...html.matchAll(/(?:src|href)="\/?([^"]+\.js)"/g)].map((m) => m[1]!));
  return [...files].reduce((sum, file) => sum + gz(join(dist, file)), 0);
}

/** Gzipped bytes (from dist) of every JS file Chromium fetches for `path` on a first visit. */
async function visitJs(url: string, path: string): Promise<number> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    const scripts = new Set<string>();
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (request.resourceType() === 'script' || pathname.endsWith('.js')) scripts.add(pathname);
    });
    await page.goto(`${url}${path}`, { waitUntil: 'networkidle' });
    await context.close();
    return [...scripts].filter((p) => p.startsWith('/assets/')).reduce((sum, p) => sum + gz(join(web, 'dist', p)), 0);
  } finally {
    await browser.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function lighthouse(url: string): Record<string, number> | null {
  const bin = (process.env.LIGHTHOUSE_BIN ?? 'npx --yes lighthouse@13.5.0').split(' ');
  const run = spawnSync(
    bin[0]!,
    [...bin.slice(1), url, '--quiet', '--output=json', '--only-categories=performance,best-practices,seo', '--chrome-flags=--headless --no-sandbox --disable-gpu'],
    { env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.status !== 0) {
    report(`lighthouse failed on ${url}: ${run.stderr.split('\n').slice(-3).join(' ')}`);
    return null;
  }
  const result = JSON.parse(run.stdout) as { categories: Record<string, { score: number }>; audits: Record<string, { numericValue?: number }> };
  return {
    performance: Math.round(result.categories.performance!.score * 100),
    'best-practices': Math.round(result.categories['best-practices']!.score * 100),
    seo: Math.round(result.categories.seo!.score * 100),
    'fcp ms': Math.round(result.audits['first-contentful-paint']?.numericValue ?? 0),
    'lcp ms': Math.round(result.audits['largest-contentful-paint']?.numericValue ?? 0),
    'tbt ms': Math.round(result.audits['total-blocking-time']?.numericValue ?? 0),
  };
}

async function main() {
  execFileSync('npx', ['vite', 'build', '--config', join(web, 'bench', 'bare-stack', 'vite.config.ts')], { cwd: web, stdio: 'inherit' });
  const bare = staticJs(bareDist);
  report(`bare stack (React 19 + react-router + Dexie + workbox-window): ${kb(bare)} gzip JS`);

  const server = await startServer({}, releaseBinary);
  try {
    for (const path of ['/', '/login']) {
      const ours = await visitJs(server.url, path);
      report(`first visit ${path}: ${kb(ours)} gzip JS = ${(ours / bare).toFixed(2)}× the bare stack (goal ≤ 1.15×)`);
    }
    for (const path of ['/', '/login']) {
      const runs = [0, 1, 2].map(() => lighthouse(`${server.url}${path}`)).filter((r): r is Record<string, number> => r !== null);
      if (runs.length === 0) continue;
      // Each run too: the score moves with the machine's load, and a median of 3 hides how much.
      runs.forEach((r, i) => report(`lighthouse mobile ${path}, run ${i + 1}: ${Object.entries(r).map(([key, value]) => `${key} ${value}`).join(', ')}`));
      const figures = Object.keys(runs[0]!).map((key) => `${key} ${median(runs.map((r) => r[key]!))} (${Math.min(...runs.map((r) => r[key]!))}–${Math.max(...runs.map((r) => r[key]!))})`);
      report(`lighthouse mobile ${path}, median of ${runs.length} (min–max): ${figures.join(', ')}`);
    }
  } finally {
    await server.stop();
  }
}

await main();
