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
import { chromium, type BrowserContext, type Route } from 'playwright-core';

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

const publicPages = ['/', '/login', '/privacy', '/terms', '/contact'];

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
      });
      if (mockApi) await installMockApi(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(`${viewport.name}: page error: ${error.message}`));
      page.on('console', (message) => {
        // A signed-out visitor's session check answers 401 by design; the browser logs it anyway.
        const expected = message.text().includes('status of 401') && message.location().url.endsWith('/api/v1/auth/session');
        if (message.type() === 'error' && !expected) problems.push(`${viewport.name}: console: ${message.text()}`);
      });
      const shot = async (name: string, fullPage: boolean) => {
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
      await shot('app-dashboard', false);

      await page.getByRole('link', { name: 'Open profile' }).click();
      await page.getByRole('button', { name: 'Sign Out' }).waitFor();
      await shot('app-profile', false);

      await page.getByRole('button', { name: 'Sync Data' }).click();
      await page.getByRole('alertdialog').waitFor();
      await shot('app-sync-dialog', false);

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
      default:
        return reply(route, 404, { error: { code: 'not-found', message: 'Not found' } });
    }
  });
}

await main();
