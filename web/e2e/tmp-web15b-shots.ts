// Throwaway (web15b): screenshots of / and /login, both themes, two sizes, plus the no-JS paint.
import { launchBrowser, startServer } from './harness';
const out = '/work/shots15/web15b';
const server = await startServer();
const browser = await launchBrowser();
const sizes = [[390, 844], [1280, 800]] as const;
for (const theme of ['dark', 'light'] as const) {
  for (const [width, height] of sizes) {
    const context = await browser.newContext({ viewport: { width, height }, baseURL: server.url, reducedMotion: 'reduce' });
    const page = await context.newPage();
    if (theme === 'light') {
      await page.goto('/login');
      await page.getByRole('button', { name: 'Continue as guest' }).and(page.locator(':enabled')).click();
      await page.waitForURL('**/app/dashboard');
      await page.goto('/app/profile');
      await page.getByRole('button', { name: 'Light' }).and(page.locator(':enabled')).click();
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
      await context.clearCookies();
    }
    for (const [path, name] of [['/', 'landing'], ['/login', 'login']] as const) {
      await page.goto(path);
      await page.locator('[data-until-js]').first().waitFor({ state: 'detached' });
      await page.getByText('By using Delivery Tracker').waitFor();
      await page.screenshot({ path: `${out}/${name}-${width}x${height}-${theme}.png` });
    }
    await context.close();
  }
}
for (const [width, height] of sizes) {
  const context = await browser.newContext({ viewport: { width, height }, baseURL: server.url, javaScriptEnabled: false });
  const page = await context.newPage();
  for (const [path, name] of [['/', 'landing'], ['/login', 'login']] as const) {
    await page.goto(path);
    await page.screenshot({ path: `${out}/${name}-${width}x${height}-static-nojs.png` });
  }
  await context.close();
}
await browser.close();
await server.stop();
