// [28] The evidence bundle, in Chromium against the real binary: offline, the driver makes a
// statement query with a proof-of-delivery photo on its line, prints the query (the print view
// and a PDF of it), and downloads its evidence bundle, built on the device: the ZIP is read here
// and every file the manifest lists is hashed again in Node. Back online, a second device that
// has never opened the photo downloads the range's bundle from History: the server builds it,
// with the stored photo, and its manifest's hashes hold too. Zero axe violations on both screens.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Download } from 'playwright-core';
import { readZip, type ZipEntry } from '../src/testing/read-zip';
import { addEntry, axeViolations, checkStatement, goOffline, goOnline, logIn, newPage, openStatementLines, serverAndBrowser, serverHolds, short, shots, signUp, syncNow, thisWeek, uniqueEmail } from './harness';
import { receiptPng } from './png';

const run = serverAndBrowser();
interface Manifest {
  builtBy: string;
  statement: string;
  scope: Record<string, string>;
  query: { chain: { holds: boolean } } | null;
  items: { id: string; words: string; createdAt: string | null; photo: string | null }[];
  files: { name: string; bytes: number; sha256: string; evidenceId: string | null; recordedAt: string | null; createdAt: string | null }[];
}

/** The downloaded ZIP, read back; every file the manifest lists hashed again here. */
async function checkedBundle(download: Download): Promise<{ entries: ZipEntry[]; manifest: Manifest }> {
  const entries = readZip(new Uint8Array(readFileSync(await download.path())));
  const json = entries.find((e) => e.name === 'manifest.json');
  assert.ok(json, `a manifest in ${entries.map((e) => e.name).join(', ')}`);
  const manifest = JSON.parse(new TextDecoder().decode(json.bytes)) as Manifest;
  assert.deepEqual(
    entries.map((e) => e.name).filter((name) => !name.startsWith('manifest.')),
    manifest.files.map((f) => f.name),
    'the manifest lists every file but itself',
  );
  for (const file of manifest.files) {
    const entry = entries.find((e) => e.name === file.name)!;
    assert.equal(createHash('sha256').update(entry.bytes).digest('hex'), file.sha256, `${file.name}'s SHA-256`);
    assert.equal(entry.bytes.length, file.bytes, `${file.name}'s size`);
  }
  return { entries, manifest };
}

const photo = { name: 'delivered.png', mimeType: 'image/png', buffer: receiptPng(300, 400) };

describe('evidence bundle', () => {
  it('is built offline on the device for a query with its photo, printed, and built by the server for a device without the photo', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await page.setViewportSize({ width: 390, height: 844 });
    const email = uniqueEmail('bundle');
    await signUp(page, email, 'van-route-42', 'Sam Driver');
    await page.waitForURL('**/app/dashboard');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const [start, monday, tuesday, end] = [thisWeek(-14), thisWeek(-13), thisWeek(-12), thisWeek(-8)];
    await addEntry(page, monday, 100, 'R12');
    await addEntry(page, tuesday, 120, 'R12');
    await checkStatement(page, start, end, '415.80');

    // Offline: the lines imported, a proof-of-delivery photo on the short-paid line, the query made.
    await goOffline(context);
    await openStatementLines(page, start, end);
    const csv = ['Date,Description,Stops,Amount (£)', `${short(monday)},Multi-drop stops,100,198.00`, `${short(tuesday)},Multi-drop stops,110,217.80`].join('\r\n');
    await page.getByLabel('Statement file (CSV or PDF)').setInputFiles({ name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('group', { name: "Match the file's columns" }).getByRole('button', { name: 'Save the layout and import 2 lines' }).click();
    await page.getByText('Added 2 lines.').waitFor();
    const difference = page.getByRole('list', { name: 'Differences' }).getByRole('listitem').filter({ hasText: '10 stops logged but not paid' });
    await difference.getByRole('button', { name: /Show the records behind it/ }).click();
    const onLine = difference.getByRole('region', { name: new RegExp(`^Evidence on the statement line .* of ${short(tuesday).replaceAll('/', '\\/')}$`) });
    await onLine.getByRole('button', { name: 'Add evidence' }).click();
    const lineForm = onLine.getByRole('form', { name: /^Add evidence on the statement line/ });
    await lineForm.getByLabel('What it is').selectOption('photo');
    await lineForm.getByLabel('What it shows').selectOption('proofOfDelivery');
    await lineForm.getByLabel('Caption').fill('Left with neighbour at no. 12');
    await lineForm.getByTestId('evidence-file').setInputFiles(photo);
    await lineForm.getByRole('img', { name: 'The photo picked' }).waitFor();
    await lineForm.getByRole('button', { name: 'Save evidence' }).click();
    await onLine.getByRole('listitem').filter({ hasText: 'Photo (proof of delivery)' }).getByText('Waiting to upload').waitFor();
    await page.getByRole('button', { name: 'Query this' }).click();
    await page.waitForURL('**/app/statement-query?id=*');
    const queryId = new URL(page.url()).searchParams.get('id')!;
    await page.getByText('Chain checked: every item is as recorded.').waitFor();

    // Printed: the print view keeps the letter and drops the buttons; Chromium makes its PDF.
    await page.emulateMedia({ media: 'print' });
    const letter = page.getByRole('article', { name: /^Query about the statement for/ });
    assert.equal(await letter.getByText('10 stops logged but not paid').isVisible(), true);
    assert.equal(await page.getByRole('button', { name: 'Download evidence bundle' }).isVisible(), false, 'no buttons on paper');
    const pdf = await page.pdf({ format: 'A4' });
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    await page.emulateMedia({ media: 'screen' });

    // The bundle, still offline: built here, from the device's own records and photo.
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download evidence bundle' }).click();
    const offlineBundle = await downloaded;
    const madeOn = new Date().toLocaleDateString('en-CA');
    assert.equal(offlineBundle.suggestedFilename(), `evidence-query-${madeOn}.zip`);
    await page.getByText(`Downloaded evidence-query-${madeOn}.zip: made on this device.`).waitFor();
    const { entries, manifest } = await checkedBundle(offlineBundle);
    assert.equal(manifest.builtBy, 'device');
    assert.deepEqual(manifest.scope, { queryId });
    assert.equal(manifest.query?.chain.holds, true);
    assert.match(manifest.statement, /^This is the driver's own record, kept at the time on their device\./);
    const photoFile = manifest.files.find((f) => f.name.startsWith('photos/'));
    assert.ok(photoFile, 'the photo is in the bundle');
    assert.match(photoFile.name, new RegExp(`^photos/${tuesday}-proof-of-delivery-[0-9a-f-]{36}\\.jpg$`));
    assert.equal(photoFile.createdAt, null, 'made offline: not on the server yet');
    assert.match(photoFile.recordedAt ?? '', /^\d{4}-\d{2}-\d{2}T/);
    const summary = new TextDecoder().decode(entries.find((e) => e.name === 'summary.html')!.bytes);
    for (const said of ["This is the driver's own record", '10 stops logged but not paid', 'Sam Driver', 'Photo (proof of delivery): Left with neighbour at no. 12', 'not on the server yet', `src="${photoFile.name}"`]) {
      assert.ok(summary.includes(said), `the summary says "${said}"`);
    }
    assert.match(summary, /Total owed to me: £\d+\.\d{2}/);
    assert.deepEqual(await axeViolations(page), [], 'the query page with its bundle');
    await shots(page, 'statement-query-bundle');

    // Online: the query, the item and the photo reach the server.
    const uploadAnswered = page.waitForResponse((response) => response.request().method() === 'PUT' && response.url().includes('/api/v1/receipts/'), { timeout: 60_000 });
    await goOnline(context);
    await serverHolds(page, 'the query and its photo item', (all) => all.some((r) => r.kind === 'statementQuery') && all.some((r) => r.kind === 'evidence'));
    assert.equal((await uploadAnswered).status(), 201);

    // A second device, which has never opened the photo: History's bundle comes from the server.
    const other = await newPage(run.browser, run.server);
    const serverBuilt: string[] = [];
    other.page.on('response', (response) => {
      if (response.url().includes('/api/v1/evidence-bundle?')) serverBuilt.push(`${response.status()} ${new URL(response.url()).search}`);
    });
    await logIn(other.page, email, 'van-route-42');
    await other.page.waitForURL('**/app/dashboard');
    await syncNow(other.page);
    await other.page.goto('/app/history');
    const exports = other.page.getByRole('group', { name: 'Export' });
    await exports.getByRole('button', { name: 'Export JSON' }).waitFor();
    const fromServer = other.page.waitForEvent('download');
    await exports.getByRole('button', { name: 'Download evidence bundle' }).click();
    const serverBundle = await fromServer;
    assert.match(serverBundle.suggestedFilename(), /^evidence-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.zip$/);
    await exports.getByText(/made by the server, as a photo was not on this device\.$/).waitFor();
    assert.equal(serverBuilt.length, 1, serverBuilt.join(', '));
    assert.match(serverBuilt[0]!, /^200 \?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/);
    const fromTheServer = await checkedBundle(serverBundle);
    assert.equal(fromTheServer.manifest.builtBy, 'server');
    const storedPhoto = fromTheServer.manifest.files.find((f) => f.name === photoFile.name);
    assert.ok(storedPhoto, `the same photo's file name in ${fromTheServer.manifest.files.map((f) => f.name).join(', ')}`);
    assert.match(storedPhoto.createdAt ?? '', /^\d{4}-\d{2}-\d{2}T/, "now with the server's time");
    assert.equal(storedPhoto.recordedAt, photoFile.recordedAt, "the device's time, the same");
    assert.deepEqual(await axeViolations(other.page), [], 'History with the bundle button');
    await other.context.close();
    await context.close();
  });
});
