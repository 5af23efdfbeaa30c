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

  it('links the footer to privacy, terms and contact', async () => {
    renderApp('/');
    await waitForSession();
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    expect(within(footer).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    expect(within(footer).getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    expect(within(footer).getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact');
  });

  it('Get Started opens the login page', async () => {
    const { router, user } = renderApp('/');
    await waitForSession();

    await user.click(screen.getByRole('link', { name: 'Get Started' }));

    expect(currentPath(router)).toBe('/login');
    expect(screen.getByRole('tab', { name: 'Login' })).toBeInTheDocument();
  });
});
