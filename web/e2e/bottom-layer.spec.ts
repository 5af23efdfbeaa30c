// [26] One floating layer, in Chromium against the real binary: the offline sync strip rests on
// the bottom bar without overlapping its box, the Undo toast stacks above the strip, and neither
// covers the other, the bar, Save or a form field, at 390×844, 390×500 (the keyboard open) and
// 1280×800. Boxes are measured, never eyeballed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { goOffline, goOnline, newPage, signUp, syncBadge, uniqueEmail, serverAndBrowser } from './harness';

const run = serverAndBrowser();

interface Box {
  name: string;
  top: number;
  bottom: number;
  left: number;
  right: number;
}

async function boxOf(name: string, locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  assert.ok(box, `${name} is on screen`);
  return { name, top: box.y, bottom: box.y + box.height, left: box.x, right: box.x + box.width };
}

/** Boxes that share any area (touching edges do not). */
function overlapping(boxes: Box[]): string[] {
  const found: string[] = [];
  for (const [i, a] of boxes.entries())
    for (const b of boxes.slice(i + 1))
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) found.push(`${a.name} overlaps ${b.name} (${JSON.stringify([a, b])})`);
  return found;
}

/**
 * Every field and the Save of `form`, each focused in turn as a driver tapping through would
 * (the browser scrolls it into view), must then lie clear of the floating layer and the bar.
 */
async function fieldsClear(form: Locator, floating: Box[], where: string): Promise<string[]> {
  const problems: string[] = [];
  const controls = form.locator('input:visible, select:visible, textarea:visible, button[type="submit"]');
  const count = await controls.count();
  assert.ok(count >= 4, `${where}: the form's fields are found`);
  for (let i = 0; i < count; i += 1) {
    const control = controls.nth(i);
    await control.focus();
    const label = await control.evaluate((element) => ('labels' in element && (element as HTMLInputElement).labels?.[0]?.textContent) || element.textContent || element.tagName);
    const name = `${where} ${label.trim()}`;
    problems.push(...overlapping([await boxOf(name, control), ...floating]).filter((problem) => problem.startsWith(name)));
  }
  return problems;
}

describe('the floating layer', () => {
  it('the strip rests on the bar, the toast above it, and neither covers the bar, Save or a field at any size', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await signUp(page, uniqueEmail('layer'));
    await page.waitForURL('**/app/dashboard');
    await page.goto('/app/spending?view=expenses&add=1');
    const form = page.getByRole('form', { name: 'Add an expense' });
    for (const [amount, note] of [
      ['3.20', 'Parking at the depot'],
      ['45.50', 'Diesel'],
    ]) {
      if (!(await form.isVisible())) await page.getByRole('button', { name: 'Add expense' }).click();
      await form.getByLabel('Amount (£)').fill(amount);
      await form.getByLabel('Category').selectOption('fuel');
      await form.getByLabel('Note').fill(note);
      await form.getByRole('button', { name: 'Add expense' }).click();
      await form.waitFor({ state: 'hidden' });
    }
    await goOffline(context);
    await syncBadge(page).getByText('You are offline').waitFor();
    const expenses = page.getByRole('region', { name: 'Expenses' });
    await expenses.getByRole('button', { name: /^Delete .*Diesel|^Delete Fuel/ }).first().click();
    const toast = page.getByRole('status').filter({ hasText: 'deleted' });
    await toast.waitFor();
    await page.getByRole('button', { name: 'Add expense' }).click();
    await form.waitFor();

    const strip = page.getByRole('complementary', { name: 'Sync status' });
    const bar = page.getByRole('navigation', { name: 'Main' });
    for (const size of [
      { width: 390, height: 844 },
      { width: 390, height: 500 },
      { width: 1280, height: 800 },
    ]) {
      const where = `${size.width}×${size.height}`;
      await page.setViewportSize(size);
      await toast.waitFor();
      const floating = [await boxOf(`${where} toast`, toast), await boxOf(`${where} sync strip`, strip), await boxOf(`${where} bottom bar`, bar)];
      assert.deepEqual(overlapping(floating), [], where);
      // The strip rests on the bar's top edge on a phone; the toast is above the strip.
      const [toastBox, stripBox, barBox] = floating;
      if (size.width < 1200) assert.ok(Math.abs(stripBox.bottom - barBox.top) < 0.5, `${where}: the strip sits on the bar (${stripBox.bottom} vs ${barBox.top})`);
      assert.ok(toastBox.bottom <= stripBox.top, `${where}: the toast is above the strip`);
      assert.deepEqual(await fieldsClear(form, floating, where), [], where);
    }
    await goOnline(context);
    await context.close();
  });
});
