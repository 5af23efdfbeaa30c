// [issue 26] Plans for self-hosters. PLANS_ENABLED=false: no banner, no upgrade page (its route
// goes to the dashboard), no plan label. Plans on: a one-line banner a driver can hide for a week,
// still hidden after a reload.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, openNav, signUp, startServer, uniqueEmail, type RunningServer } from './harness';

const run = {} as { off: RunningServer; on: RunningServer; browser: Browser };
before(async () => {
  run.off = await startServer({ PLANS_ENABLED: 'false' });
  run.on = await startServer();
  run.browser = await launchBrowser();
});
after(async () => {
  await run.browser?.close();
  await run.off?.stop();
  await run.on?.stop();
});

describe('plans', () => {
  it('turned off by the operator: no banner, no upgrade page, no plan label', async () => {
    const { context, page } = await newPage(run.browser, run.off);
    await signUp(page, uniqueEmail('noplans'));
    await page.waitForURL('**/app/dashboard');
    await page.getByRole('button', { name: 'Save Entry' }).waitFor();
    assert.equal(await page.getByRole('complementary', { name: 'Pro plan' }).count(), 0);

    await page.goto('/app/upgrade');
    await page.waitForURL('**/app/dashboard');
    assert.equal(await page.getByRole('button', { name: 'Upgrade to Pro' }).count(), 0);

    await openNav(page, 'Profile');
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor();
    assert.equal(await page.getByText('Free User').count(), 0);
    assert.equal(await page.getByText('Pro Member').count(), 0);
    assert.equal(await page.getByRole('complementary', { name: 'Pro plan' }).count(), 0);
    await context.close();
  });

  it('on: a one-line banner that hides for a week, also after a reload', async () => {
    const { context, page } = await newPage(run.browser, run.on);
    await signUp(page, uniqueEmail('plans'));
    await page.waitForURL('**/app/dashboard');
    const banner = page.getByRole('complementary', { name: 'Pro plan' });
    await banner.waitFor();
    const box = await banner.boundingBox();
    assert.ok(box && box.height <= 48, `one slim line, not ${box?.height} px`);
    await banner.getByRole('button', { name: 'Hide for a week' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('button', { name: 'Save Entry' }).waitFor();
    assert.equal(await banner.count(), 0);
    // The plans page still says what Pro gives.
    await page.goto('/app/upgrade');
    await page.getByText('Pro removes the banner, and that is all').waitFor();
    await context.close();
  });
});
