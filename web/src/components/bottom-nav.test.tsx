import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { BottomNav } from './bottom-nav';

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <BottomNav />
    </MemoryRouter>,
  );
  const link = (name: string) => screen.getByRole('link', { name });
  return { home: link('Home'), spending: link('Spending'), tax: link('Tax'), profile: link('Profile'), settings: link('Settings') };
}

describe('BottomNav', () => {
  it('links to the five app screens', () => {
    const { home, spending, tax, profile, settings } = renderAt('/app/dashboard');
    expect(home).toHaveAttribute('href', '/app/dashboard');
    expect(spending).toHaveAttribute('href', '/app/spending');
    expect(tax).toHaveAttribute('href', '/app/tax');
    expect(profile).toHaveAttribute('href', '/app/profile');
    expect(settings).toHaveAttribute('href', '/app/settings');
  });

  it.each([
    ['/app/dashboard', 'home'],
    ['/app/profile', 'profile'],
    ['/app/settings', 'settings'],
    ['/app/spending', 'spending'],
    ['/app/tax', 'tax'],
    // "contains", as the spec says: deeper paths keep their section lit.
    ['/app/dashboard/history', 'home'],
  ] as const)('highlights only the matching button on %s', (path, active) => {
    const links = renderAt(path);
    for (const [key, link] of Object.entries(links)) {
      if (key === active) expect(link).toHaveAttribute('aria-current', 'page');
      else expect(link).not.toHaveAttribute('aria-current');
    }
  });

  it('highlights nothing on a screen outside the five sections', () => {
    const links = renderAt('/app/upgrade');
    for (const link of Object.values(links)) expect(link).not.toHaveAttribute('aria-current');
  });
});
