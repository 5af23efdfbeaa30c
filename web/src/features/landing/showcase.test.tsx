import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SHOWCASE_INTERVAL_MS, Showcase } from './showcase';

const slide = () => screen.getByRole('group', { name: /of 5:/ });
const wait = (ms: number) => act(() => void vi.advanceTimersByTime(ms));

function preferReducedMotion(reduce: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: reduce && query === '(prefers-reduced-motion: reduce)',
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    })),
  );
}

describe('Showcase', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('moves through dashboard, weekly view, invoice, recent entries and stats every 4 seconds, then starts over', () => {
    render(<Showcase />);
    const seen = [slide().getAttribute('aria-label')];
    for (let i = 0; i < 5; i += 1) {
      wait(SHOWCASE_INTERVAL_MS - 1);
      expect(slide()).toHaveAttribute('aria-label', seen.at(-1));
      wait(1);
      seen.push(slide().getAttribute('aria-label'));
    }
    expect(seen).toEqual([
      '1 of 5: Dashboard',
      '2 of 5: Weekly view',
      '3 of 5: Statement check',
      '4 of 5: Recent entries',
      '5 of 5: Stats',
      '1 of 5: Dashboard',
    ]);
  });

  it('renders the real components with sample data', () => {
    render(<Showcase />);
    expect(within(slide()).getByRole('list', { name: 'Your stats' })).toBeInTheDocument();
    wait(SHOWCASE_INTERVAL_MS);
    expect(within(slide()).getByRole('heading', { name: 'Weekly Stats' })).toBeInTheDocument();
    wait(SHOWCASE_INTERVAL_MS);
    // 118 stops on the default tiers: 110 × £1.98 + 8 × £1.48.
    expect(within(slide()).getByRole('table')).toHaveTextContent('£229.64');
    wait(SHOWCASE_INTERVAL_MS);
    expect(within(slide()).getAllByRole('listitem')).toHaveLength(3);
  });

  it('stops on Pause and goes on from the same slide on Play', () => {
    render(<Showcase />);
    wait(SHOWCASE_INTERVAL_MS);
    fireEvent.click(screen.getByRole('button', { name: 'Pause showcase' }));
    wait(SHOWCASE_INTERVAL_MS * 3);
    expect(slide()).toHaveAttribute('aria-label', '2 of 5: Weekly view');

    fireEvent.click(screen.getByRole('button', { name: 'Play showcase' }));
    wait(SHOWCASE_INTERVAL_MS);
    expect(slide()).toHaveAttribute('aria-label', '3 of 5: Statement check');
  });

  it('lets the user pick a preview, which then stays for a full 4 seconds', () => {
    render(<Showcase />);
    wait(SHOWCASE_INTERVAL_MS - 1000);
    fireEvent.click(screen.getByRole('button', { name: 'Recent entries' }));
    expect(slide()).toHaveAttribute('aria-label', '4 of 5: Recent entries');
    expect(screen.getByRole('button', { name: 'Recent entries' })).toHaveAttribute('aria-current', 'true');
    wait(SHOWCASE_INTERVAL_MS - 1);
    expect(slide()).toHaveAttribute('aria-label', '4 of 5: Recent entries');
    wait(1);
    expect(slide()).toHaveAttribute('aria-label', '5 of 5: Stats');
  });

  it('does not rotate by itself when the user prefers reduced motion, but Play still starts it', () => {
    preferReducedMotion(true);
    render(<Showcase />);
    wait(SHOWCASE_INTERVAL_MS * 3);
    expect(slide()).toHaveAttribute('aria-label', '1 of 5: Dashboard');

    fireEvent.click(screen.getByRole('button', { name: 'Play showcase' }));
    wait(SHOWCASE_INTERVAL_MS);
    expect(slide()).toHaveAttribute('aria-label', '2 of 5: Weekly view');
  });

  it('rotates when the system setting allows motion', () => {
    preferReducedMotion(false);
    render(<Showcase />);
    wait(SHOWCASE_INTERVAL_MS);
    expect(slide()).toHaveAttribute('aria-label', '2 of 5: Weekly view');
  });
});
