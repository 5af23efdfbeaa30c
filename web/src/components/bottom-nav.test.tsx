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
  return screen.getByRole('navigation', { name: 'Main' });
}

const current = () => screen.getAllByRole('link').filter((link) => link.getAttribute('aria-current') === 'page');

describe('BottomNav', () => {
  it('links to the six places a driver goes, statement checks one tap away', () => {
    renderAt('/app/dashboard');
    const hrefs = Object.fromEntries(screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]));
    expect(hrefs).toEqual({
      Home: '/app/dashboard',
      History: '/app/history',
      Statements: '/app/history?view=statements',
      Spending: '/app/spending',
      Tax: '/app/tax',
      More: '/app/more',
    });
  });

  it.each([
    ['/app/dashboard', 'Home'],
    ['/app/history', 'History'],
    ['/app/history?view=summaries&from=2026-01-01', 'History'],
    ['/app/history?view=statements', 'Statements'],
    ['/app/spending?view=mileage', 'Spending'],
    ['/app/tax', 'Tax'],
    ['/app/settings', 'More'],
    ['/app/profile', 'More'],
    ['/app/upgrade', 'More'],
  ] as const)('on %s highlights %s and nothing else', (path, active) => {
    renderAt(path);
    expect(current().map((link) => link.textContent)).toEqual([active]);
  });
});
