// Live updates across the event stream's lifetime (issue 31): the server ends every stream after
// EVENT_STREAM_MAX_SECONDS (here 1 s), and the browser's EventSource must come back by itself, so a
// device keeps getting pokes however long it stays open. The stream requests are counted as
// Chromium sends them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addEntry, logIn, newPage, serverAndBrowser, signUp, syncBadge, uniqueEmail } from './harness';

const run = serverAndBrowser({ EVENT_STREAM_MAX_SECONDS: '1' });

describe('event stream lifetime', () => {
  it('reconnects after the server ends the stream, and the other device still gets the change', async () => {
    const email = uniqueEmail('stream');
    const phone = await newPage(run.browser, run.server);
    let opened = 0;
    phone.page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v1/sync/events') opened += 1;
    });
    await signUp(phone.page, email);
    await phone.page.waitForURL('**/app/dashboard');
    await phone.page.getByText('Recent Entries').waitFor();

    // Three streams: the first and two that the browser opened after the server ended one.
    for (let tries = 0; opened < 3 && tries < 120; tries += 1) await phone.page.waitForTimeout(500);
    assert.ok(opened >= 3, `the browser reopened the stream (${opened} opened)`);

    const laptop = await newPage(run.browser, run.server);
    await logIn(laptop.page, email, 'van-route-42');
    await laptop.page.waitForURL('**/app/dashboard');
    await addEntry(laptop.page, '2025-03-17', 42, 'Sent from the laptop');
    await phone.page.getByText('Sent from the laptop').waitFor({ timeout: 40_000 });
    assert.equal(await syncBadge(phone.page).getByText(/error|offline/i).count(), 0, 'no sync trouble shown');
    await laptop.context.close();
    await phone.context.close();
  });
});
