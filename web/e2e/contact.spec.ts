// [4/5] Contact, end to end: validation in the spec's order, Message Sent!, and the operator
// reading the message with `delivery-tracker messages list`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newPage, serverAndBrowser } from './harness';

const run = serverAndBrowser();

describe('contact form', () => {
  it('names the first problem, sends, and reaches the operator', async () => {
    const { context, page } = await newPage(run.browser, run.server);
    await page.goto('/contact');
    const send = page.getByRole('button', { name: 'Send Message' });
    await send.click();
    await page.getByRole('alert').getByText('Name is required').waitFor();

    await page.getByLabel('Name').fill('Pat Courier');
    await page.getByLabel('Email').fill('pat@example');
    await send.click();
    await page.getByRole('alert').getByText('Please enter a valid email address').waitFor();

    await page.getByLabel('Email').fill('pat@example.com');
    await send.click();
    await page.getByRole('alert').getByText('Message is required').waitFor();

    await page.getByLabel('Subject').fill('Weekly view');
    await page.getByLabel('Message').fill('Can the week start on Monday for my depot?');
    await send.click();
    await page.getByText('Message Sent!').waitFor();
    await page.getByRole('button', { name: 'Send Another Message' }).click();
    // The form is back once its button is: until then getByLabel('Message') is the card labelled
    // "Message Sent!", which has no value to read.
    await send.waitFor();
    assert.equal(await page.getByLabel('Message').inputValue(), '');

    const inbox = run.server.admin('messages', 'list');
    assert.match(inbox, /Pat Courier <pat@example\.com>/);
    assert.match(inbox, /Subject: Weekly view/);
    assert.match(inbox, /week start on Monday/);
    await context.close();
  });
});
