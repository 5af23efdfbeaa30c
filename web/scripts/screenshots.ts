/**
 * Screenshots of the main screens at phone and desktop sizes, for a person to look at.
 *
 *   npx tsx scripts/screenshots.ts BASE_URL OUT_DIR [--mock-api]
 *
 * BASE_URL serves the built app: the real server binary, or `vite preview` (which proxies /api
 * to API_PROXY_TARGET). --mock-api answers /api inside the browser instead, for when no server
 * is at hand; it exists only here, never in the tests.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page, type Route } from 'playwright-core';

const args = process.argv.slice(2);
const mockApi = args.includes('--mock-api');
const [baseUrl, outDir] = args.filter((arg) => !arg.startsWith('--'));
if (!baseUrl || !outDir) {
  console.error('usage: tsx scripts/screenshots.ts BASE_URL OUT_DIR [--mock-api]');
  process.exit(2);
}

const viewports = [
  { name: 'mobile', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

const publicPages = ['/', '/login', '/forgot-password', '/privacy', '/terms', '/contact'];

function slug(path: string) {
  return path === '/' ? 'landing' : path.replace(/^\//, '').replaceAll('/', '-');
}

async function main() {
  await mkdir(outDir!, { recursive: true });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const problems: string[] = [];
  try {
    for (const viewport of viewports) {
      const context = await browser.newContext({
        baseURL: baseUrl,
        viewport: { width: viewport.width, height: viewport.height },
        colorScheme: 'dark',
        // A UK driver's browser (Intl and times; headless Chromium still draws date inputs as mm/dd/yyyy).
        locale: 'en-GB',
        timezoneId: 'Europe/London',
      });
      if (mockApi) await installMockApi(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(`${viewport.name}: page error: ${error.message}`));
      page.on('console', (message) => {
        // A signed-out visitor's session check answers 401 by design; the browser logs it anyway.
        const { url } = message.location();
        const expected =
          (message.text().includes('status of 401') && url.endsWith('/api/v1/auth/session')) ||
          // Upgrade to Pro with no payment provider configured: 404 billing-disabled, by design.
          (message.text().includes('status of 404') && url.endsWith('/api/v1/billing/checkout'));
        if (message.type() === 'error' && !expected) problems.push(`${viewport.name}: console: ${message.text()}`);
      });
      const shot = async (name: string, fullPage: boolean) => {
        if (fullPage) {
          // From the top, so the sticky header and the fixed bar sit where a person sees them.
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.waitForTimeout(300);
        }
        const file = join(outDir!, `${viewport.name}-${name}.png`);
        await page.screenshot({ path: file, fullPage });
        console.log(file);
      };

      for (const path of publicPages) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await shot(slug(path), true);
      }

      // The login card showing its validation messages.
      await page.goto('/login');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.getByText('Password is required').waitFor();
      await shot('login-errors', false);

      // Sign up a fresh user through the UI, as a driver would.
      await page.goto('/login');
      await page.getByRole('tab', { name: 'Sign Up' }).click();
      await page.getByLabel('Display name').fill('Sam Screenshot');
      await page.getByLabel('Email').fill(`shots-${Date.now()}-${viewport.name}@example.com`);
      await page.getByLabel('Password').fill('Kestrel-Van-Route-2025');
      await shot('login-sign-up', false);
      await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
      await page.waitForURL('**/app/dashboard');
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.getByText('Welcome to Delivery Tracker!', { exact: false }).waitFor();
      await shot('app-dashboard-new', false);

      // A few days of work, typed into the form as a driver would.
      const days = [
        { ago: 3, stops: '104', extra: '', notes: '' },
        { ago: 2, stops: '131', extra: '12.50', notes: 'Two parcels back to depot' },
        { ago: 1, stops: '98', extra: '', notes: '' },
      ];
      for (const day of days) await logEntry(page, day);
      await page.getByText('All data synced', { exact: false }).first().waitFor();
      await page.getByText('Waiting to sync').first().waitFor({ state: 'detached' });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(300); // the greeting card fades back in
      await shot('app-dashboard', false);
      await shot('app-dashboard-full', true);

      // The badge: offline, with the form's Save button in view; it must not cover it or the bottom bar.
      const save = page.getByRole('button', { name: 'Save Entry' });
      await save.scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollBy(0, 120));
      await context.setOffline(true);
      const badge = page.getByRole('complementary', { name: 'Sync status' });
      await badge.getByText('You are offline').waitFor();
      await page.waitForTimeout(300); // the badge's entrance animation
      await shot('app-badge-offline', false);
      problems.push(...(await overlaps(viewport.name, badge, [save, page.getByRole('navigation', { name: 'Main' })])));

      await logEntry(page, { ago: 0, stops: '117', extra: '4.35', notes: 'Rain all afternoon, logged with no signal' });
      await page.getByText('Waiting to sync').first().waitFor();
      await page.getByRole('region', { name: 'Recent Entries' }).scrollIntoViewIfNeeded();
      await shot('app-entry-pending', false);

      await context.setOffline(false);
      await badge.getByText('All data synced', { exact: false }).waitFor();
      await page.waitForTimeout(300);
      await shot('app-badge-synced', false);
      await badge.getByText('All data synced', { exact: false }).waitFor({ state: 'detached', timeout: 5_000 });

      // A change the server refuses is parked: shown with its reason, Retry and Discard.
      await page.route('**/api/v1/sync/push', async (route) => {
        const body = route.request().postDataJSON() as { mutations: { id: string }[] };
        await route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({
            results: body.mutations.map(({ id }) => ({ id, status: 'rejected', code: 'validation', message: 'Stops must be a whole number from 0 to 1000' })),
          }),
        });
      });
      await logEntry(page, { ago: 4, stops: '140', extra: '', notes: '' });
      const parked = page.getByRole('region', { name: /Changes not synced/ });
      await parked.waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
      await parked.scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      await shot('app-dashboard-parked', false);
      await parked.getByRole('button', { name: /^Discard/ }).click();
      await page.getByRole('alertdialog').waitFor();
      await shot('app-discard-confirm', false);
      await page.getByRole('alertdialog').getByRole('button', { name: 'Discard' }).click();
      await parked.waitFor({ state: 'detached' });
      await page.unroute('**/api/v1/sync/push');

      await page.getByRole('link', { name: /View all entries/ }).click();
      await page.getByRole('heading', { name: 'All Entries' }).waitFor();
      await shot('app-history', true);

      // Edit in place, then delete with its Undo.
      const firstEntry = page.getByRole('list', { name: 'Entries' }).getByRole('article').first();
      await firstEntry.getByRole('button', { name: /^Edit entry/ }).click();
      await page.getByRole('form', { name: 'Edit entry' }).waitFor();
      await shot('app-history-edit', false);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('list', { name: 'Entries' }).getByRole('article').first().getByRole('button', { name: /^Delete entry/ }).click();
      await page.getByRole('button', { name: 'Undo' }).waitFor();
      await shot('app-history-undo', false);
      await page.getByRole('button', { name: 'Undo' }).click();
      await page.getByText('Entry restored').waitFor({ state: 'attached' });

      await page.getByRole('link', { name: 'Summaries' }).click();
      await page.locator('canvas').first().waitFor();
      await page.waitForTimeout(300);
      await shot('app-history-summaries', true);

      // The statement checks: one tap from the bar.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Statements' }).click();
      await page.getByRole('heading', { level: 1, name: 'Statement checks' }).waitFor();
      await page.waitForTimeout(300);
      await shot('app-history-statements', true);

      await page.getByRole('link', { name: 'Open profile' }).click();
      await page.getByRole('button', { name: 'Sign Out' }).waitFor();
      await page.getByRole('region', { name: 'Achievements' }).getByRole('listitem').first().waitFor();
      await shot('app-profile', false);
      await shot('app-profile-full', true);

      await page.getByRole('button', { name: 'Sync Data' }).click();
      await page.getByRole('alertdialog').waitFor();
      await shot('app-sync-dialog', false);
      await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();

      // Profile edit, with the validation message showing.
      await page.getByRole('button', { name: 'Edit Profile' }).click();
      await page.getByLabel('Bio').fill('Leeds depot, van 7. Nights and weekends.');
      await page.getByLabel('Display name').fill('');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Display name is required').waitFor();
      await shot('app-profile-edit', false);
      await page.getByLabel('Display name').fill('Sam Screenshot');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Profile updated successfully!').waitFor();
      await shot('app-profile-saved', false);

      // Payment settings, through More.
      await openSettings(page);
      await shot('app-more', false);
      await page.getByRole('link', { name: /Payment Settings/ }).click();
      await page.getByRole('heading', { level: 1, name: 'Payment Settings' }).waitFor();
      await page.waitForTimeout(300);
      await shot('app-settings', true);

      // Plans, as a free user: the banner, the comparison, and what Upgrade to Pro says.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
      await page.getByRole('complementary', { name: 'Pro plan' }).waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(300);
      await shot('app-banner', false);
      problems.push(...(await bannerCovers(viewport.name, page)));
      await page.getByRole('complementary', { name: 'Pro plan' }).getByRole('link', { name: /Go ad-free with Pro/ }).click();
      await page.getByRole('button', { name: 'Upgrade to Pro' }).waitFor();
      await shot('app-upgrade-free', true);
      await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
      await page.getByRole('alertdialog').waitFor();
      await shot('app-upgrade-dialog', false);
      await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();

      // Light theme on the main screens.
      await page.getByRole('link', { name: 'Open profile' }).click();
      await page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Light' }).click();
      await page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Light', pressed: true }).waitFor();
      await page.waitForTimeout(300);
      await shot('light-profile', true);
      for (const [link, name] of [['Home', 'dashboard'], ['Statements', 'statements'], ['Spending', 'spending'], ['Tax', 'tax'], ['More', 'more']] as const) {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
        await page.waitForTimeout(300);
        await shot(`light-${name}`, true);
      }
      await page.goto('/app/history');
      await page.getByRole('heading', { name: 'All Entries' }).waitFor();
      await shot('light-history', true);
      await page.goto('/app/upgrade');
      await page.getByRole('button', { name: 'Upgrade to Pro' }).waitFor();
      await shot('light-upgrade', true);

      // As a Pro user (the plan is the server's: rewrite what it says, for the picture only).
      await asPro(context);
      await page.goto('/app/profile');
      // A profile change, so the next pull carries the (rewritten) profile.
      await page.getByRole('button', { name: 'Edit Profile' }).click();
      await page.getByLabel('Bio').fill('Leeds depot, van 7.');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('link', { name: 'Pro Member' }).waitFor({ timeout: 20_000 });
      await page.getByText('Profile updated successfully!').waitFor({ state: 'detached' });
      await shot('light-profile-pro', false);
      await page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Dark' }).click();
      await page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Dark', pressed: true }).waitFor();
      await page.waitForTimeout(300);
      await shot('app-profile-pro', false);
      await page.goto('/app/upgrade');
      await page.getByRole('button', { name: 'Current Plan' }).waitFor();
      await shot('app-upgrade-pro', true);

      // A guest's profile: keep the account, devices.
      await context.unrouteAll({ behavior: 'ignoreErrors' });
      await page.goto('/app/profile');
      await page.getByRole('button', { name: 'Sign Out' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.goto('/login');
      await page.getByRole('button', { name: 'Continue as guest' }).click();
      await page.waitForURL('**/app/dashboard');
      await page.goto('/app/profile');
      await page.getByRole('region', { name: 'Keep your account' }).waitFor();
      await page.getByRole('region', { name: 'Your devices' }).getByText('This device').waitFor();
      await shot('app-profile-guest', true);

      await context.close();
    }
  } finally {
    await browser.close();
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exitCode = 1;
  }
}

/** The More screen, where pay settings, profile and plans are. */
async function openSettings(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'More' }).click();
  await page.getByRole('heading', { level: 1, name: 'More' }).waitFor();
}

/** YYYY-MM-DD of `ago` days before today (local). */
function dayAgo(ago: number): string {
  const date = new Date();
  date.setDate(date.getDate() - ago);
  return [date.getFullYear(), date.getMonth() + 1, date.getDate()].map((n) => String(n).padStart(2, '0')).join('-');
}

/** Fills and saves the entry form; `ago` is days before today (local). */
async function logEntry(page: Page, day: { ago: number; stops: string; extra: string; notes: string }) {
  const ymd = dayAgo(day.ago);
  // Once today is logged the dashboard shows it, and "Log another day" opens the form again.
  const form = page.getByRole('region', { name: 'Log New Entry' });
  const another = page.getByRole('button', { name: 'Log another day' });
  await form.or(another).first().waitFor();
  if (await another.isVisible()) await another.click();
  await form.getByLabel('Date').fill(ymd);
  await form.getByLabel('Stops').fill(day.stops);
  await form.getByLabel('Extra', { exact: false }).fill(day.extra);
  await form.getByLabel('Notes', { exact: false }).fill(day.notes);
  await form.getByRole('button', { name: 'Save Entry' }).click();
  // Today's day is confirmed on the Today card, another date's in the form.
  await page.getByText('Entry saved successfully!').first().waitFor();
}

/** Reports where `floating` covers any of `targets` on screen. */
async function overlaps(where: string, floating: Locator, targets: Locator[]): Promise<string[]> {
  const box = await floating.boundingBox();
  if (!box) return [`${where}: the sync badge is not on screen`];
  const found: string[] = [];
  for (const target of targets) {
    const other = await target.boundingBox();
    if (!other) continue;
    const apart =
      box.x + box.width <= other.x || other.x + other.width <= box.x || box.y + box.height <= other.y || other.y + other.height <= box.y;
    if (!apart) found.push(`${where}: the sync badge covers ${await target.evaluate((el) => el.outerHTML.slice(0, 80))}`);
  }
  return found;
}

/** Reports where the Pro banner covers the header, the bottom bar or the first control of the screen. */
async function bannerCovers(where: string, page: Page): Promise<string[]> {
  const banner = page.getByRole('complementary', { name: 'Pro plan' });
  const targets = [page.getByRole('banner'), page.getByRole('navigation', { name: 'Main' }), page.getByRole('heading', { level: 1 })];
  return (await overlaps(where, banner, targets)).map((problem) => problem.replace('the sync badge', 'the Pro banner'));
}

/** Makes the server's answers say the user is on Pro (session and synced profile). */
async function asPro(context: BrowserContext) {
  const rewrite = async (route: Route, change: (body: Record<string, unknown>) => void) => {
    try {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      if (response.ok()) change(body);
      await route.fulfill({ response, json: body });
    } catch {
      // The context closed while a request was in flight: nothing left to answer.
    }
  };
  await context.route('**/api/v1/auth/session', (route) =>
    rewrite(route, (body) => {
      (body.user as Record<string, unknown>).role = 'pro';
    }),
  );
  await context.route('**/api/v1/sync/pull**', (route) =>
    rewrite(route, (body) => {
      for (const change of body.changes as { kind: string; data?: Record<string, unknown> }[]) {
        if (change.kind === 'profile' && change.data) change.data.role = 'pro';
      }
    }),
  );
}

/** A tiny stand-in for the server's auth routes (docs/api.md), one signed-in state per context. */
async function installMockApi(context: BrowserContext) {
  let user: Record<string, unknown> | null = null;
  const now = new Date().toISOString();
  const reply = (route: Route, status: number, body?: unknown) =>
    route.fulfill({ status, contentType: 'application/json', body: body === undefined ? '' : JSON.stringify(body) });

  await context.route('**/api/v1/**', async (route) => {
    const request = route.request();
    const path = new URL(request.url()).pathname;
    const key = `${request.method()} ${path}`;
    const body = (request.postDataJSON() ?? {}) as { email?: string; displayName?: string };
    const makeUser = (anonymous: boolean) => ({
      id: '0190a5d0-0000-7000-8000-000000000001',
      email: anonymous ? null : (body.email ?? null),
      displayName: body.displayName || 'User',
      photoURL: null,
      bio: '',
      role: 'free',
      isAnonymous: anonymous,
      createdAt: now,
      lastLogin: now,
    });
    switch (key) {
      case 'GET /api/v1/auth/session':
        return user ? reply(route, 200, { user }) : reply(route, 401, { error: { code: 'unauthenticated', message: 'Not signed in' } });
      case 'POST /api/v1/auth/signup':
        user = makeUser(false);
        return reply(route, 201, { user, isNewUser: true });
      case 'POST /api/v1/auth/guest':
        user = makeUser(true);
        return reply(route, 201, { user, isNewUser: true });
      case 'POST /api/v1/auth/login':
        return reply(route, 401, { error: { code: 'invalid-credentials', message: 'Invalid email or password' } });
      case 'POST /api/v1/auth/logout':
        user = null;
        return route.fulfill({ status: 204 });
      case 'GET /api/v1/sync/events':
        return route.fulfill({ status: 204 }); // no pokes: the periodic pull covers it
      case 'GET /api/v1/sync/pull':
        return reply(route, 200, { changes: [], cursor: 0, hasMore: false });
      case 'POST /api/v1/sync/push': {
        const { mutations = [] } = (request.postDataJSON() ?? {}) as { mutations?: { id: string }[] };
        return reply(route, 200, { results: mutations.map(({ id }) => ({ id, status: 'applied' })) });
      }
      default:
        return reply(route, 404, { error: { code: 'not-found', message: 'Not found' } });
    }
  });
}

await main();
