// The app can be installed: Chromium's own installability check (through the DevTools
// protocol) finds nothing wrong with / as the real binary serves it, and every icon the
// manifest and index.html name is a PNG of the size they say. The maskable and apple-touch
// icons are opaque to the edge with the drawing inside the maskable safe zone (the inner 80 %
// circle), read pixel by pixel in the browser.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { launchProfile, startServer, type RunningServer } from './harness';

let server: RunningServer;
let profileDir: string;
let context: BrowserContext;

before(async () => {
  server = await startServer();
  // Chromium refuses to install from an incognito window, which is what a plain context is.
  profileDir = mkdtempSync(join(tmpdir(), 'dt-e2e-profile-'));
  context = await launchProfile(server, profileDir);
});

after(async () => {
  await context?.close();
  rmSync(profileDir, { recursive: true, force: true });
  await server?.stop();
});

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

/** Width and height from a PNG's IHDR chunk, which always comes first after the signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  assert.equal(bytes.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'not a PNG');
  assert.equal(bytes.subarray(12, 16).toString('ascii'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function fetchPng(page: Page, url: string): Promise<{ width: number; height: number }> {
  const response = await page.request.get(url);
  assert.equal(response.status(), 200, url);
  assert.equal(response.headers()['content-type'], 'image/png', url);
  return pngSize(await response.body());
}

interface Pixels {
  /** Smallest alpha in the four corners. */
  cornerAlpha: number;
  /** Pixels outside the inner 80 % circle that differ from the top-left corner's colour. */
  outsideSafeZone: number;
  /** Pixels inside it that do (the drawing: there must be one). */
  insideSafeZone: number;
}

/** Draws the image on a canvas in the page and compares each pixel with the background. */
function readPixels(page: Page, url: string): Promise<Pixels> {
  return page.evaluate(async (src) => {
    const image = new Image();
    image.src = src;
    await image.decode();
    const { naturalWidth: w, naturalHeight: h } = image;
    const canvas = document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, w, h).data;
    // No named helpers in here: the test's compiler would wrap them in a function the page lacks.
    const cornerAlpha = Math.min(data[3] as number, data[(w - 1) * 4 + 3] as number, data[(h - 1) * w * 4 + 3] as number, data[(h * w - 1) * 4 + 3] as number);
    const background = Array.from(data.subarray(0, 4));
    let outsideSafeZone = 0;
    let insideSafeZone = 0;
    for (let y = 0; y < h; y += 1) {
      for (let x = 0; x < w; x += 1) {
        const pixel = data.subarray((y * w + x) * 4, (y * w + x) * 4 + 4);
        // A small tolerance for the resampler's rounding; the white truck is far from the blue.
        const differs = background.some((value, i) => Math.abs(value - (pixel[i] as number)) > 8);
        if (!differs) continue;
        const inside = Math.hypot(x + 0.5 - w / 2, y + 0.5 - h / 2) <= 0.4 * w;
        if (inside) insideSafeZone += 1;
        else outsideSafeZone += 1;
      }
    }
    return { cornerAlpha, outsideSafeZone, insideSafeZone };
  }, url);
}

describe('installing the app', () => {
  it('passes Chromium’s installability check with PNG icons of the sizes the manifest says', async () => {
    const page = await context.newPage();
    await page.goto('/');
    await page.getByText('Track your delivery stats efficiently').first().waitFor();

    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    assert.equal(new URL(manifest.url).pathname, '/manifest.webmanifest');
    assert.deepEqual(manifest.errors, []);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, []);

    const response = await page.request.get(manifest.url);
    const { icons } = (await response.json()) as { icons: ManifestIcon[] };
    const any = icons.filter((icon) => (icon.purpose ?? 'any').split(' ').includes('any'));
    const maskable = icons.filter((icon) => icon.purpose?.split(' ').includes('maskable'));
    assert.deepEqual(any.map((icon) => icon.sizes).sort(), ['192x192', '512x512']);
    assert.deepEqual(maskable.map((icon) => icon.sizes).sort(), ['192x192', '512x512']);
    for (const icon of icons) {
      assert.equal(icon.type, 'image/png');
      const url = new URL(icon.src, manifest.url).href;
      const { width, height } = await fetchPng(page, url);
      assert.equal(`${width}x${height}`, icon.sizes, url);
      const pixels = await readPixels(page, url);
      assert.ok(pixels.insideSafeZone > 0, `${url} draws nothing`);
      if (maskable.includes(icon)) {
        assert.equal(pixels.cornerAlpha, 255, `${url} must be opaque to the edge`);
        assert.equal(pixels.outsideSafeZone, 0, `${url} draws outside the safe zone`);
      } else {
        // The "any" icon is the rounded tile itself, transparent around it and filling its
        // square past the safe-zone circle (which also shows the count above sees the edges).
        assert.equal(pixels.cornerAlpha, 0, `${url} should keep the tile's rounded corners`);
        assert.ok(pixels.outsideSafeZone > 0);
      }
    }

    const appleHref = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    assert.ok(appleHref, 'index.html links an apple-touch icon');
    const appleUrl = new URL(appleHref, server.url).href;
    assert.deepEqual(await fetchPng(page, appleUrl), { width: 180, height: 180 });
    const apple = await readPixels(page, appleUrl);
    assert.equal(apple.cornerAlpha, 255, 'iOS shows transparency as black: the apple-touch icon is opaque');
    assert.ok(apple.insideSafeZone > 0);
    assert.equal(await page.locator('meta[name="theme-color"]').getAttribute('content'), '#0e1116');

    // The service worker precaches each file under one revision: one URL with two (the
    // manifest as built and as first planned) makes it throw on start, and the app is gone offline.
    const sw = await (await page.request.get('/sw.js')).text();
    const precached = new Map<string, Set<string>>();
    for (const [, url, revision] of sw.matchAll(/\{url:"([^"]+)",revision:"([^"]+)"/g)) precached.set(url as string, (precached.get(url as string) ?? new Set()).add(revision as string));
    assert.ok(precached.has('manifest.webmanifest') && precached.has('apple-touch-icon-180x180.png'), 'the icons and manifest work offline');
    assert.deepEqual([...precached].filter(([, revisions]) => revisions.size > 1).map(([url]) => url), []);
  });
});
