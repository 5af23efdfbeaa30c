import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '@/testing/fixtures';
import { renderApp, waitForSession } from '@/testing/render-app';

async function open(path: string, signedIn = false) {
  const app = renderApp(path, signedIn ? { user: makeUser() } : {});
  await waitForSession();
  return app;
}

/** The policy text itself, not the footer's links to the same pages. */
const policy = () => within(screen.getByRole('heading', { level: 1 }).closest('div')!.parentElement!);

describe('PrivacyPage', () => {
  it('has the spec date and the facts a user needs', async () => {
    await open('/privacy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument();
    expect(screen.getByText('Last updated: March 21, 2025')).toBeInTheDocument();
    expect(screen.getByText(/not intended for children under 16/)).toBeInTheDocument();
    expect(screen.getByText(/The operator of this Delivery Tracker/)).toBeInTheDocument();
    expect(screen.getByText(/no third-party trackers/)).toBeInTheDocument();
    expect(screen.getByText(/Monday-Friday, 9:00 AM to 5:00 PM BST/)).toBeInTheDocument();
    for (const link of screen.getAllByRole('link', { name: 'contact us' })) expect(link).toHaveAttribute('href', '/contact');
  });

  it('is the same page inside the app, linking to the app copies', async () => {
    await open('/app/privacy', true);
    expect(await screen.findByText('Last updated: March 21, 2025')).toBeInTheDocument();
    for (const link of screen.getAllByRole('link', { name: 'contact us' })) expect(link).toHaveAttribute('href', '/app/contact');
  });
});

describe('TermsPage', () => {
  it('has the spec date, the governing law and the plans', async () => {
    await open('/terms');
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of Service' })).toBeInTheDocument();
    expect(screen.getByText('Last updated: March 22, 2025')).toBeInTheDocument();
    expect(screen.getByText('These terms are governed by the laws of the United Kingdom.')).toBeInTheDocument();
    expect(screen.getByText(/costs £4\.99 per month/)).toBeInTheDocument();
    expect(policy().getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
  });

  it('is the same page inside the app, linking to the app copies', async () => {
    await open('/app/terms', true);
    expect(await screen.findByText('Last updated: March 22, 2025')).toBeInTheDocument();
    expect(policy().getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/app/privacy');
    for (const link of screen.getAllByRole('link', { name: 'contact us' })) expect(link).toHaveAttribute('href', '/app/contact');
  });
});
