import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json, networkFailure, type RecordedCall } from '@/testing/fake-fetch';
import { makeUser } from '@/testing/fixtures';
import { renderApp, waitForSession } from '@/testing/render-app';

const route = 'POST /api/v1/contact';

async function openContact(path = '/contact', options: Parameters<typeof renderApp>[1] = {}) {
  const app = renderApp(path, { routes: { [route]: () => json(201, { received: true }) }, ...options });
  await waitForSession();
  await screen.findByRole('heading', { level: 1, name: 'Contact Us' });
  const field = (label: RegExp) => screen.getByRole('textbox', { name: label }) as HTMLInputElement;
  return {
    ...app,
    name: () => field(/^Name/),
    email: () => field(/^Email/),
    subject: () => field(/^Subject/),
    message: () => field(/^Message/),
    send: () => app.user.click(screen.getByRole('button', { name: 'Send Message' })),
    async fill(values: { name?: string; email?: string; subject?: string; message?: string }) {
      for (const [key, value] of Object.entries(values)) {
        const input = field(new RegExp(`^${key}`, 'i'));
        await app.user.clear(input);
        if (value) await app.user.type(input, value);
      }
    },
  };
}

describe('ContactPage validation', () => {
  it('shows only the first failing rule, in the spec order, and marks that field', async () => {
    const page = await openContact();

    await page.send();
    expect(screen.getByRole('alert')).toHaveTextContent('Name is required');
    expect(page.name()).toHaveAttribute('aria-invalid', 'true');
    expect(page.name()).toHaveFocus();
    expect(page.email()).not.toHaveAttribute('aria-invalid');

    await page.fill({ name: 'Sam Driver' });
    await page.send();
    expect(screen.getByRole('alert')).toHaveTextContent('Email is required');
    expect(page.email()).toHaveAttribute('aria-invalid', 'true');
    expect(page.name()).not.toHaveAttribute('aria-invalid');

    await page.fill({ email: 'sam@example' });
    await page.send();
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid email address');
    expect(page.email()).toHaveAttribute('aria-invalid', 'true');

    await page.fill({ email: 'sam@example.com' });
    await page.send();
    expect(screen.getByRole('alert')).toHaveTextContent('Message is required');
    expect(page.message()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByRole('alert')).toHaveLength(1);

    expect(page.server.callsTo(route)).toHaveLength(0);
  });
});

describe('ContactPage sending', () => {
  it('posts the trimmed message, shows Sending... with the button disabled, then Message Sent!', async () => {
    let answer!: (response: Response) => void;
    const page = await openContact('/contact', {
      routes: { [route]: () => new Promise<Response>((resolve) => (answer = resolve)) },
    });
    await page.fill({ name: ' Sam Driver ', email: 'sam@example.com', subject: 'Invoices', message: 'Can I export a week?' });
    await page.send();

    const button = screen.getByRole('button', { name: 'Sending...' });
    expect(button).toBeDisabled();
    const [call] = page.server.callsTo(route) as [RecordedCall];
    expect(call.body).toEqual({ name: 'Sam Driver', email: 'sam@example.com', subject: 'Invoices', message: 'Can I export a week?' });

    answer(json(201, { received: true }));
    expect(await screen.findByRole('heading', { name: 'Message Sent!' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /^Message/ })).not.toBeInTheDocument();
  });

  it('Send Another Message returns to an empty form', async () => {
    const page = await openContact();
    await page.fill({ name: 'Sam', email: 'sam@example.com', subject: 'Hi', message: 'Hello' });
    await page.send();
    await page.user.click(await screen.findByRole('button', { name: 'Send Another Message' }));

    expect(page.name()).toHaveValue('');
    expect(page.email()).toHaveValue('');
    expect(page.subject()).toHaveValue('');
    expect(page.message()).toHaveValue('');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });

  it.each([
    ['the network is down', () => networkFailure()],
    ['the server fails', () => apiError(500, 'internal', 'database is locked')],
    ['a proxy answers with a page', () => new Response('<h1>Bad gateway</h1>', { status: 502 })],
    ['the success body is not ours', () => json(200, { ok: 1 })],
  ])('shows the failure text and keeps what was typed when %s', async (_, handler) => {
    const page = await openContact('/contact', { routes: { [route]: handler } });
    await page.fill({ name: 'Sam', email: 'sam@example.com', message: 'Hello' });
    await page.send();

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to send message. Please try again later.');
    expect(page.message()).toHaveValue('Hello');
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });

  it("shows the server's message on a 422 and marks the field it names", async () => {
    const page = await openContact('/contact', {
      routes: {
        [route]: () =>
          apiError(422, 'validation', 'Please keep this under 200 characters', { fields: { subject: ['Please keep this under 200 characters'] } }),
      },
    });
    await page.fill({ name: 'Sam', email: 'sam@example.com', subject: 'Long', message: 'Hello' });
    await page.send();

    expect(await screen.findByRole('alert')).toHaveTextContent('Please keep this under 200 characters');
    expect(page.subject()).toHaveAttribute('aria-invalid', 'true');
  });

  it("shows the server's message when rate-limited", async () => {
    const page = await openContact('/contact', {
      routes: { [route]: () => apiError(429, 'rate_limited', 'Too many messages. Please try again in an hour.') },
    });
    await page.fill({ name: 'Sam', email: 'sam@example.com', message: 'Hello' });
    await page.send();

    expect(await screen.findByRole('alert')).toHaveTextContent('Too many messages. Please try again in an hour.');
  });
});

describe('ContactPage in the app', () => {
  it('fills in the signed-in user and shows the support hours', async () => {
    const page = await openContact('/app/contact', { user: makeUser({ displayName: 'Samira Khan', email: 'samira@example.com' }) });
    expect(page.name()).toHaveValue('Samira Khan');
    expect(page.email()).toHaveValue('samira@example.com');
    expect(page.subject()).toHaveValue('');

    const hours = screen.getByRole('region', { name: 'Support hours' });
    expect(within(hours).getByText('Monday-Friday, 9:00 AM to 5:00 PM BST')).toBeInTheDocument();
  });

  it('leaves the email empty for a guest with no address', async () => {
    const page = await openContact('/app/contact', { user: makeUser({ isAnonymous: true, email: null, displayName: '' }) });
    expect(page.name()).toHaveValue('');
    expect(page.email()).toHaveValue('');
  });
});
