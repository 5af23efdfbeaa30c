// End-to-end harness: the real server binary on a fresh data directory, driven through
// Debian's Chromium by playwright-core. Nothing here is mocked.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { distProxy } from '../bench/dist-proxy';

const repoRoot = resolve(import.meta.dirname, '..', '..');
/** Where cargo builds: CARGO_TARGET_DIR (relative to the repository root, where the Makefile runs
 * cargo) when set, as in the Makefile. */
const targetDir = resolve(repoRoot, process.env.CARGO_TARGET_DIR ?? 'target');
const built = (profile: 'debug' | 'release') =>
  process.env.DT_BINARY ?? join(targetDir, profile, 'delivery-tracker');
/** The end-to-end specs drive the debug binary the Rust tests build (`make test-e2e` builds
 * it); a debug build reads web/dist from disk, so a web change needs no Rust rebuild. */
export const testBinary = built('debug');
/** The benchmarks want the optimised binary with the web app embedded (`make bench` builds it). */
export const releaseBinary = built('release');

export interface RunningServer {
  url: string;
  dataDir: string;
  /** Runs an admin subcommand against the same data directory. */
  admin(...args: string[]): string;
  stop(): Promise<void>;
}

export async function startServer(env: Record<string, string> = {}, binaryPath = testBinary): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dt-e2e-'));
  // Every spec signs in guests from 127.0.0.1 and some push a lot: the storage limits have
  // their own Rust tests, so they are lifted here.
  const limits = { GUEST_RATE_LIMIT_PER_IP_PER_HOUR: '100000', GUEST_RATE_LIMIT_PER_HOUR: '100000', PUSH_MUTATIONS_PER_MINUTE: '1000000' };
  const serverEnv = { ...process.env, DATA_DIR: dataDir, LISTEN: '127.0.0.1:0', LOG: 'warn', ...limits, ...env };
  const child: ChildProcess = spawn(binaryPath, ['serve'], { env: serverEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 15 s\n${stderr}`)), 15_000);
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}\n${stderr}`));
    });
  });
  // Without the web app every spec would time out on a page that never renders: say why once.
  if ((await fetch(url)).status === 503) {
    child.kill('SIGTERM');
    throw new Error(`${binaryPath} serves no web app: build it with \`make web\` (npm run build)`);
  }
  // E2E_WEB_DIST: a built web app served in front of the binary (bench/dist-proxy.ts), for a
  // web change checked against a binary built elsewhere (a debug binary serves the web/dist of
  // the worktree it was built in).
  const web = process.env.E2E_WEB_DIST ? await distProxy(process.env.E2E_WEB_DIST, url) : null;
  return {
    url: web?.url ?? url,
    dataDir,
    admin(...args: string[]) {
      const result = spawnSync(binaryPath, args, { env: serverEnv, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`admin ${args.join(' ')} failed: ${result.stderr}`);
      return result.stdout;
    },
    async stop() {
      web?.close();
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const chromiumOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch(chromiumOptions);
}

/** The binary (with `env`) and a browser for one spec file: started before its first test and
 * stopped after its last. Read `server` and `browser` inside tests: they exist only once the
 * file's `before` has run. */
export function serverAndBrowser(env: Record<string, string> = {}): { server: RunningServer; browser: Browser } {
  const run = {} as { server: RunningServer; browser: Browser };
  before(async () => {
    run.server = await startServer(env);
    run.browser = await launchBrowser();
  });
  after(async () => {
    await run.browser?.close();
    await run.server?.stop();
  });
  return run;
}

/** Chromium with a profile on disk (a normal window, not incognito, which cannot install an
 * app), on `server`'s origin at phone size. Remove `profileDir` after closing the context. */
export async function launchProfile(server: RunningServer, profileDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, { ...chromiumOptions, ...phone, baseURL: server.url });
}

export const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 };

/** A free loopback port (bound, then released for the server to take): for specs whose settings
 * name the server's own address (PUBLIC_URL) before it starts. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export async function newPage(browser: Browser, server: RunningServer): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...phone, baseURL: server.url });
  const page = await context.newPage();
  return { context, page };
}

const DAY_MS = 86_400_000;
/** The Sunday starting this week (the spec's weeks start on Sunday), plus `offset` days, as YYYY-MM-DD. */
export function thisWeek(offset: number): string {
  const today = new Date();
  const sunday = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate()) - today.getDay() * DAY_MS;
  return new Date(sunday + offset * DAY_MS).toISOString().slice(0, 10);
}

/** The device's day, YYYY-MM-DD (the browser runs in this process's zone), read when called. */
export function deviceDay(): string {
  const now = new Date();
  return [now.getFullYear(), now.getMonth() + 1, now.getDate()].map((n, i) => String(n).padStart(i === 0 ? 4 : 2, '0')).join('-');
}

/** A YYYY-MM-DD day as the app writes it: dd/mm/yyyy. */
export const short = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

let counter = 0;
/** A unique e-mail per call, so tests never collide. */
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${counter}@example.com`;
}

export async function signUp(page: Page, email: string, password = 'van-route-42', displayName = ''): Promise<void> {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  if (displayName) await page.getByLabel('Display name').fill(displayName);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
}

export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/** The bottom bar's items (lib/nav.ts). */
export type NavItemName = 'Home' | 'History' | 'Statements' | 'Spending' | 'Tax' | 'More';
/** Screens a driver reaches through "More" (its links are named as the screens' headings). */
const throughMore = { Profile: 'Profile', Settings: 'Payment Settings' } as const;

/**
 * Opens a page from the bottom bar and waits until it is the page shown. React Router renders
 * the navigation in a transition, so a click can return while the old page is still on screen;
 * the link turns current in the same commit that shows the new page. Profile and Settings are
 * under More: two taps, the second waiting on the screen's heading.
 */
export async function openNav(page: Page, name: NavItemName | keyof typeof throughMore): Promise<void> {
  const bar = page.getByRole('navigation', { name: 'Main' });
  const item = name === 'Profile' || name === 'Settings' ? 'More' : name;
  const link = bar.getByRole('link', { name: item, exact: true });
  await link.click();
  await link.and(page.locator('[aria-current="page"]')).waitFor();
  if (item === name) return;
  const heading = throughMore[name as keyof typeof throughMore];
  await page.getByRole('main').getByRole('link', { name: new RegExp(`^${heading}`) }).click();
  await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
}

/**
 * The dashboard's day form. Once today is logged the top of the dashboard reads as today's day,
 * and "Log another day" opens the form again: tapped here when it shows.
 */
/** The dashboard's day form, as it stands (`openDayForm` also opens it when it is folded away). */
export const dayForm = (page: Page): Locator => page.getByRole('region', { name: 'Log New Entry' });

export async function openDayForm(page: Page): Promise<Locator> {
  const form = dayForm(page);
  const another = page.getByRole('button', { name: 'Log another day' });
  await form.or(another).first().waitFor();
  if (await another.isVisible()) await another.click();
  return form;
}

/**
 * Saves the dashboard's day form (from `openDayForm`, filled for `date`) and waits for its
 * confirmation. A day saved for today takes the form's place at the top, in the Today card,
 * and the confirmation goes with it; any other day is confirmed in the form. (Both can show at
 * once, so a page-wide wait would be ambiguous on the day a test logs today.)
 */
export async function saveDayForm(page: Page, form: Locator, date: string): Promise<void> {
  await form.getByRole('button', { name: 'Save Entry' }).click();
  const confirmedIn = date === deviceDay() ? page.getByRole('region', { name: /^Today / }) : form;
  await confirmedIn.getByText('Entry saved successfully!').waitFor();
}

/** Logs a day with the dashboard's entry form, as a driver would. */
export async function addEntry(page: Page, date: string, stops: number, notes: string): Promise<void> {
  // Within the form: once today is logged, its day button's name ("… · 100 stops") matches
  // a page-wide 'Stops' label too.
  const form = await openDayForm(page);
  await form.getByLabel('Date').fill(date);
  await form.getByLabel('Stops', { exact: true }).fill(String(stops));
  await form.getByLabel('Notes').fill(notes);
  await saveDayForm(page, form, date);
}

/**
 * Logs typed business miles with the spending page's mileage form and waits until the form has
 * closed. The form is opened first if it is closed; call this only when it has settled, opened
 * by the dashboard's "Log mileage" (?add=1, once there is a vehicle) or closed by the last save:
 * saving drops ?add=1 in a navigation of its own, so the form can stay up a moment after the
 * day shows, and a check made then would skip opening it. `beforeSave` looks at the filled form.
 */
export async function logMiles(page: Page, day: string, miles: number, beforeSave?: (form: Locator) => Promise<void>): Promise<void> {
  const form = page.getByRole('form', { name: 'Log mileage' });
  if (!(await form.isVisible())) await page.getByRole('button', { name: 'Log mileage' }).click();
  await form.getByLabel('Day').fill(day);
  await form.getByLabel('Miles from').selectOption('typed');
  await form.getByLabel('Business miles').fill(String(miles));
  await beforeSave?.(form);
  await form.getByRole('button', { name: 'Log mileage' }).click();
  await form.waitFor({ state: 'hidden' });
}

/**
 * Checks a pay period's statement from History's statements view, as a driver would: the net
 * paid typed and saved. Returns the check's card once it shows.
 */
export async function checkStatement(page: Page, start: string, end: string, paid: string): Promise<Locator> {
  await page.goto('/app/history?view=statements');
  const period = page.getByRole('listitem', { name: `Pay period ${short(start)} – ${short(end)}` });
  await period.getByRole('button', { name: 'Check statement' }).click();
  const form = period.getByRole('form', { name: `Check statement ${short(start)} – ${short(end)}` });
  await form.getByLabel('Net paid, after deductions (£)').fill(paid);
  await form.getByRole('button', { name: 'Save check' }).click();
  const card = page.getByRole('article', { name: `Statement check ${short(start)} – ${short(end)}` });
  await card.waitFor();
  return card;
}

/** Opens a statement check's own page, its lines and differences, from its card (offline too). */
export async function openStatementLines(page: Page, start: string, end: string): Promise<void> {
  await page.getByRole('link', { name: `Lines and differences of statement check ${short(start)} – ${short(end)}` }).click();
  await page.getByRole('heading', { level: 1, name: 'Statement check' }).waitFor();
}

/** Offline for real: the context's network and every request, service worker's included. */
export async function goOffline(context: BrowserContext): Promise<void> {
  await context.setOffline(true);
  await context.route('**/*', (route) => route.abort('internetdisconnected'));
}

export async function goOnline(context: BrowserContext): Promise<void> {
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  await context.setOffline(false);
}

/** The floating sync badge's text. */
export function syncBadge(page: Page) {
  return page.getByRole('complementary', { name: 'Sync status' }).getByRole('status');
}

/**
 * Back online, and waits until `page`'s sync badge says "All data synced". The badge hides 3 s
 * after the sync, so the wait starts before the network returns: started after, a loaded
 * machine can look for the words once they are gone again.
 */
export async function goOnlineUntilSynced(context: BrowserContext, page: Page): Promise<void> {
  await Promise.all([syncBadge(page).getByText(/All data synced/).waitFor({ timeout: 20_000 }), goOnline(context)]);
}

/**
 * Syncs with the header's Sync Data and closes its dialog: after it, the device holds everything
 * the server had, the first pull's default courier and card included. (The screens show a
 * default courier made on the device before that pull, so they cannot tell it has happened.)
 */
export async function syncNow(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sync Data' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Data synchronized successfully!' });
  await dialog.getByRole('button', { name: 'OK' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Settings → "Couriers & pay". */
export function couriersSection(page: Page): Locator {
  return page.getByRole('region', { name: 'Couriers & pay' });
}

/** A courier's item in the settings (its toggle, and once open its cards and deductions). */
export function courierItem(page: Page, name: string): Locator {
  return couriersSection(page)
    .getByRole('listitem')
    .filter({ has: page.locator('button[aria-expanded]', { hasText: name }) });
}

/** A courier's item in the settings, opened. */
export async function openCourier(page: Page, name: string): Promise<Locator> {
  const item = courierItem(page, name);
  const toggle = item.locator('button[aria-expanded]').first();
  await toggle.waitFor({ timeout: 20_000 });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  return item;
}

export interface PulledRecord {
  kind: string;
  id: string;
  deleted: boolean;
  data?: Record<string, unknown>;
}

/** The account's live records on the server, pulled from the start as a new device would. */
export async function serverRecords(page: Page): Promise<PulledRecord[]> {
  const pulled = await page.evaluate(async () => (await fetch('/api/v1/sync/pull?cursor=0&limit=1000')).json());
  return (pulled.changes as PulledRecord[]).filter((c) => !c.deleted);
}

/**
 * Waits until the server holds what `ready` looks for, and returns the records. The device
 * pushes on its own; the sync badge is no signal to wait on (it hides 3 s after a sync).
 */
export async function serverHolds(page: Page, what: string, ready: (records: PulledRecord[]) => boolean): Promise<PulledRecord[]> {
  for (let tries = 0; tries < 60; tries += 1) {
    const records = await serverRecords(page);
    if (ready(records)) return records;
    await page.waitForTimeout(500);
  }
  throw new Error(`the server never held ${what}`);
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core (from npm, evaluated into the page) over the page as it is: each WCAG 2.2 AA violation with its elements. */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return (await page.evaluate(() =>
    (window as unknown as { axe: { run: (d: Document, o: object) => Promise<{ violations: { id: string; nodes: { html: string }[] }[] }> } }).axe
      .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'] }, resultTypes: ['violations'] })
      .then((r) => r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 120)).join(', ')}`)),
  )) as string[];
}

/**
 * Shows the page in `theme` as the app's own setting would, and waits until the colours have
 * finished their transitions: a check or a screenshot taken mid-way sees neither theme.
 */
export async function setTheme(page: Page, theme: string): Promise<void> {
  await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
  await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition)));
}

/**
 * With SHOTS_DIR set, screenshots at 390×844 and 1280×800 in both themes, as
 * SHOTS_DIR/<name>-<size>-<theme>.png, then the phone's size again: the whole page, or the
 * element `target`, or (`inView`) the screen as the driver sees it with `target` scrolled to its
 * foot, so what the bottom bar or a toast would cover shows.
 */
export async function shots(page: Page, name: string, target?: Locator, { inView = false } = {}): Promise<void> {
  if (!process.env.SHOTS_DIR) return;
  mkdirSync(process.env.SHOTS_DIR, { recursive: true });
  for (const [size, viewport] of [['390x844', phone.viewport], ['1280x800', { width: 1280, height: 800 }]] as const) {
    for (const theme of ['light', 'dark']) {
      await page.setViewportSize(viewport);
      await setTheme(page, theme);
      const path = `${process.env.SHOTS_DIR}/${name}-${size}-${theme}.png`;
      if (target && inView) {
        await target.evaluate((element) => element.scrollIntoView({ block: 'end' }));
        await page.screenshot({ path });
      } else await (target ?? page).screenshot({ path, ...(target ? {} : { fullPage: true }) });
    }
  }
  await page.setViewportSize(phone.viewport);
}
