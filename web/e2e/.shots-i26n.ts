import { addEntry, launchBrowser, signUp, startServer, thisWeek, uniqueEmail } from './harness';

const out = '/tmp/i26n-shots';
const server = await startServer();
const browser = await launchBrowser();
try {
  const shots: [string, string][] = [
    ['landing', '/'],
    ['login-signup', '/login?mode=sign-up'],
  ];
  const app: [string, string][] = [
    ['dashboard', '/app/dashboard'],
    ['history', '/app/history'],
    ['summaries', '/app/history?view=summaries'],
    ['statements', '/app/history?view=invoices'],
    ['spending', '/app/spending'],
    ['mileage', '/app/spending?view=mileage'],
    ['tax', '/app/tax'],
    ['settings', '/app/settings'],
    ['profile', '/app/profile'],
    ['more', '/app/more'],
  ];
  for (const size of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
    const context = await browser.newContext({ viewport: size, baseURL: server.url, locale: 'en-GB', timezoneId: 'Europe/London', reducedMotion: 'reduce' });
    const page = await context.newPage();
    for (const theme of ['dark', 'light']) {
      await page.evaluate((t) => localStorage.setItem('delivery-tracker:theme', t), theme).catch(() => undefined);
      for (const [name, path] of shots) {
        await page.goto(path);
        await page.evaluate((t) => localStorage.setItem('delivery-tracker:theme', t), theme);
        await page.reload();
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.waitForTimeout(500);
        await page.screenshot({ path: `${out}/${name}-${size.width}-${theme}.png`, fullPage: name === 'landing' });
      }
    }
    await signUp(page, uniqueEmail('shot'), 'van-route-42', 'Sam Shot');
    await page.waitForURL('**/app/dashboard');
    for (const [i, day] of [0, -1, -3, -7, -8, -14, -20, -30].entries()) await addEntry(page, thisWeek(day), 100 + i * 7, `Day ${i}`);
    for (const theme of ['dark', 'light']) {
      await page.goto('/app/profile');
      const button = page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: theme === 'dark' ? 'Dark' : 'Light' });
      await button.click();
      await button.and(page.locator('[aria-pressed="true"]')).waitFor();
      for (const [name, path] of app) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.waitForTimeout(800);
        await page.screenshot({ path: `${out}/${name}-${size.width}-${theme}.png`, fullPage: ['summaries', 'more', 'landing', 'history'].includes(name) });
      }
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
