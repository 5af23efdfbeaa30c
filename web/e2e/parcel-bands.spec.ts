// [28] Parcels by size band in Chromium against the real binary, at phone size: the default
// courier's card pays by band (35p a packet, 55p small, 80p medium, £1.20 large); offline, three
// days are logged with their parcels counted by band in the day form's one row; a per-parcel
// CSV statement is imported where two parcels are paid in a lower band, a day is missing and a
// charge is taken twice, and the check names each with the amount worked out here from the
// card (never read back from the app). Then a PDF statement written by the test is read on the
// device (pdfjs-dist, loaded on demand, precached for offline) through the column mapping,
// saved for the courier as a PDF layout: the same PDF again adds nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { statementPdf } from '../src/testing/statement-pdf';
import { axeViolations, checkStatement, goOffline, newPage, openCourier, openDayForm, openNav, openStatementLines, phone, serverAndBrowser, serverHolds, short, shots, signUp, thisWeek, uniqueEmail } from './harness';

const run = serverAndBrowser();



// The card, in pence, as the driver types it below.
const RATE = { packet: 35, small: 55, medium: 80, large: 120 } as const;
type Band = keyof typeof RATE;
const WORDS: Record<Band, string> = { packet: 'Packet', small: 'Small', medium: 'Medium', large: 'Large' };
const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;
const priced = (bands: Partial<Record<Band, number>>) => Object.entries(bands).reduce((sum, [band, n]) => sum + RATE[band as Band] * n, 0);

async function logBandDay(page: Page, date: string, bands: Partial<Record<Band, number>>): Promise<Locator> {
  const form = await openDayForm(page);
  await form.getByLabel('Date').fill(date);
  const row = form.getByRole('group', { name: /Parcels by size band/ });
  for (const [band, n] of Object.entries(bands)) await row.getByLabel(WORDS[band as Band], { exact: true }).fill(String(n));
  const parcels = Object.values(bands).reduce((a, b) => a + b, 0);
  await row.getByText(`= ${parcels} parcels`).waitFor();
  await form.getByText(pounds(priced(bands)), { exact: true }).waitFor();
  return form;
}

async function saveDay(form: Locator): Promise<void> {
  await form.getByRole('button', { name: 'Save Entry' }).click();
  await form.getByText('Entry saved successfully!').waitFor();
}


describe('parcels by size band', () => {
  it('logs days by band offline, names two misbanded parcels, a missing day and a charge taken twice from a per-parcel CSV, and reads a PDF statement through the mapping', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await page.setViewportSize(phone.viewport);
    await signUp(page, uniqueEmail('bands'), 'van-route-42', 'Sam Driver');
    await page.waitForURL('**/app/dashboard');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });

    // The default courier's card pays by size band, nothing per stop.
    await openNav(page, 'Settings');
    const mine = await openCourier(page, 'My courier');
    await mine.getByRole('button', { name: 'Edit rates from the start' }).click();
    await mine.getByRole('checkbox', { name: 'Pay per stop, in tiers' }).uncheck();
    await mine.getByRole('button', { name: 'Per parcel by size band' }).click();
    for (const band of Object.keys(RATE) as Band[]) await mine.getByRole('textbox', { name: `${WORDS[band]} parcel (£) (optional)`, exact: true }).fill((RATE[band] / 100).toFixed(2));
    await mine.getByRole('button', { name: 'Save' }).click();
    await mine.getByText('Payment settings saved successfully!').waitFor();
    await serverHolds(page, 'the card paying by band', (records) => records.some((r) => r.kind === 'rateCard' && (r.data?.bandRates as { large?: number } | null)?.large === 120));

    const [start, monday, tuesday, wednesday, end] = [thisWeek(-7), thisWeek(-6), thisWeek(-5), thisWeek(-4), thisWeek(-1)];
    const [pdfStart, pdfMonday, pdfEnd] = [thisWeek(-14), thisWeek(-13), thisWeek(-8)];
    const days: Record<string, Partial<Record<Band, number>>> = {
      [monday]: { packet: 2, small: 3, medium: 1, large: 1 },
      [tuesday]: { packet: 1, small: 2, large: 1 },
      [wednesday]: { small: 4 },
    };
    // The statement: Monday's medium paid as small, Tuesday's large paid as small, Wednesday
    // missing, a £3.00 scanner charge taken twice on Tuesday (not in the driver's deductions).
    const row = (date: string, code: string, service: string, size: string, amount: number) => `${short(date)},${code},${service},${size},${(amount / 100).toFixed(2)}`;
    const statement: [string, string, string, string, number][] = [
      [monday, 'H001', 'Delivery', 'Packet', RATE.packet],
      [monday, 'H002', 'Delivery', 'Packet', RATE.packet],
      ...['H003', 'H004', 'H005', 'H006'].map((code): [string, string, string, string, number] => [monday, code, 'Delivery', 'Small', RATE.small]),
      [monday, 'H007', 'Delivery', 'Large', RATE.large],
      [tuesday, 'H008', 'Delivery', 'Packet', RATE.packet],
      ...['H009', 'H010', 'H011'].map((code): [string, string, string, string, number] => [tuesday, code, 'Delivery', 'Small', RATE.small]),
      [tuesday, 'SCN-01', 'Scanner rent', '', 300],
      [tuesday, 'SCN-01', 'Scanner rent', '', 300],
    ];
    const netPaid = statement.reduce((sum, [, , service, , amount]) => sum + (service === 'Scanner rent' ? -amount : amount), 0);

    await goOffline(context);
    await page.goto('/app/dashboard');
    const first = await logBandDay(page, monday, days[monday]!);
    assert.deepEqual(await axeViolations(page), [], 'the day form with bands');
    await shots(page, 'day-form-bands', first);
    await saveDay(first);
    for (const date of [tuesday, wednesday]) await saveDay(await logBandDay(page, date, days[date]!));
    await saveDay(await logBandDay(page, pdfMonday, { packet: 1, small: 1, large: 1 }));
    // Two statement checks, made offline: last week's (CSV) and the week before's (PDF).
    await checkStatement(page, start, end, (netPaid / 100).toFixed(2));
    await checkStatement(page, pdfStart, pdfEnd, '1.45');

    // The CSV statement, offline, through the mapping step.
    await openStatementLines(page, start, end);
    const csv = ['Date,Barcode,Service,Size,Amount', ...statement.map((line) => row(...line))].join('\r\n');
    await page.getByLabel('Statement file (CSV or PDF)').setInputFiles({ name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const mapping = page.getByRole('group', { name: "Match the file's columns" });
    await mapping.getByText(`${statement.length} lines read.`).waitFor();
    await mapping.getByRole('button', { name: `Save the layout and import ${statement.length} lines` }).click();
    await page.getByText(`Added ${statement.length} lines.`).waitFor();

    // Each difference with its amount, worked out from the card here.
    const differences = page.getByRole('list', { name: 'Differences' });
    const named = (words: string) => differences.getByRole('listitem').filter({ hasText: words });
    await named('1 parcel logged as Medium paid as Small').filter({ hasText: short(monday) }).getByText(pounds(RATE.medium - RATE.small), { exact: true }).waitFor();
    await named('1 parcel logged as Large paid as Small').filter({ hasText: short(tuesday) }).getByText(pounds(RATE.large - RATE.small), { exact: true }).waitFor();
    await named('Day not on the statement').filter({ hasText: short(wednesday) }).getByText(pounds(priced(days[wednesday]!)), { exact: true }).waitFor();
    await named('SCN-01 of £3.00 taken twice').getByText('£3.00', { exact: true }).waitFor();
    const owed = Object.values(days).reduce((sum, bands) => sum + priced(bands), 0);
    assert.equal(owed - netPaid, RATE.medium - RATE.small + (RATE.large - RATE.small) + priced(days[wednesday]!) + 300 + 300, 'the named differences add up (the second charge is also not in the list)');
    await differences.getByText('Total of the differences').waitFor();
    assert.ok((await differences.getByText(pounds(owed - netPaid), { exact: true }).count()) >= 1, 'the total of the differences');
    assert.equal(await differences.getByRole('listitem').filter({ hasText: 'Unexplained' }).count(), 0);

    // The PDF statement of the week before, offline: read on the device, mapped once.
    const pdf = statementPdf({
      title: ['Courier statement', `Period ${short(pdfStart)} to ${short(pdfEnd)}`],
      header: ['Date', 'Barcode', 'Service', 'Size', 'Amount'],
      columns: [40, 120, 220, 320, 420],
      rows: [
        [short(pdfMonday), 'P001', 'Delivery', 'Packet', '0.35'],
        [short(pdfMonday), 'P002', 'Delivery', 'Small', '0.55'],
        [short(pdfMonday), 'P003', 'Delivery', 'Small', '0.55'],
      ],
      total: 'Total 1.45',
    });
    await page.goto('/app/history?view=statements');
    await openStatementLines(page, pdfStart, pdfEnd);
    const file = { name: 'statement.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) };
    await page.getByLabel('Statement file (CSV or PDF)').setInputFiles(file);
    const pdfMapping = page.getByRole('group', { name: "Match the file's columns" });
    await pdfMapping.getByText('3 lines read; 1 not: row 7: Date "Total 1.45" is not a date; Amount "" is not an amount.').waitFor();
    const preview = pdfMapping.getByRole('region', { name: "The file's first rows" });
    await preview.getByRole('columnheader', { name: 'Size' }).waitFor();
    await preview.getByRole('cell', { name: 'P002' }).waitFor();
    assert.equal(await pdfMapping.getByLabel('Size band').inputValue(), 'Size');
    assert.deepEqual(await axeViolations(page), [], 'the PDF mapping step');
    await shots(page, 'statement-pdf-mapping');
    await pdfMapping.getByRole('button', { name: 'Save the layout and import 3 lines' }).click();
    await page.getByText(/^Added 3 lines\. 1 row was not read/).waitFor();
    await named('1 parcel logged as Large paid as Small').filter({ hasText: short(pdfMonday) }).getByText(pounds(RATE.large - RATE.small), { exact: true }).waitFor();

    // The same PDF again: the courier's PDF layout is saved, one tap, nothing added.
    await page.getByLabel('Statement file (CSV or PDF)').setInputFiles(file);
    await page.getByText(/^Nothing new: all 3 lines of this file are already on this statement\./).waitFor();
    assert.equal(await page.getByRole('list', { name: 'Statement lines' }).getByRole('listitem').count(), 3);
    await context.close();
  });
});
