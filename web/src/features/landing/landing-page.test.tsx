import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentPath, renderApp, waitForSession } from '@/testing/render-app';

describe('landing page', () => {
  it('presents the product with the spec texts', async () => {
    renderApp('/');
    await waitForSession();

    expect(screen.getByRole('heading', { level: 1, name: 'Delivery Tracker' })).toBeInTheDocument();
    expect(screen.getByText('Track your delivery stats efficiently')).toBeInTheDocument();

    const features = screen.getByRole('region', { name: 'Key Features' });
    expect(within(features).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Delivery tracking',
      'Data management',
      'Statistics',
    ]);
    const usage = screen.getByRole('region', { name: 'Basic Usage' });
    expect(within(usage).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '1Enter data',
      '2View reports',
      '3Export information',
    ]);
  });

  it('says what the product does for a UK courier', async () => {
    renderApp('/');
    await waitForSession();
    const strengths = screen.getByRole('region', { name: 'Built for how couriers are paid' });
    expect(within(strengths).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([
      'Couriers and tiered pay',
      'Van hire and deductions',
      'Statement checks',
      'HMRC mileage and the tax year',
      'Works offline',
      'Self-hosted and private',
    ]);
  });

  it('links the footer to privacy, terms and contact', async () => {
    renderApp('/');
    await waitForSession();
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    expect(within(footer).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    expect(within(footer).getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    expect(within(footer).getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact');
  });

  it('Get Started opens the login page on its Sign Up tab', async () => {
    const { router, user } = renderApp('/');
    await waitForSession();

    await user.click(screen.getByRole('link', { name: 'Get Started' }));

    expect(currentPath(router)).toBe('/login');
    expect(await screen.findByRole('tab', { name: 'Sign Up', selected: true })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeInTheDocument();
  });
});
