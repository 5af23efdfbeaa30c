import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RouteError } from './route-error';

function Broken(): never {
  throw new Error('entries.map is not a function');
}

function renderBroken(showDetails?: boolean) {
  const router = createMemoryRouter(
    [
      {
        errorElement: <RouteError {...(showDetails === undefined ? {} : { showDetails })} />,
        children: [{ path: '/app/history', element: <Broken /> }],
      },
    ],
    { initialEntries: ['/app/history'] },
  );
  return render(<RouterProvider router={router} />);
}

describe('RouteError (spec §8, generic error screen)', () => {
  // React and the router report the thrown error on the console; the test expects it.
  beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => vi.restoreAllMocks());

  it('shows the spec texts and a way back to the dashboard instead of a blank page', () => {
    renderBroken(false);

    expect(screen.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText("We're sorry, but there was an error loading this content.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Dashboard' })).toHaveAttribute('href', '/app/dashboard');
  });

  it('hides the error text from users', () => {
    renderBroken(false);
    expect(screen.queryByText(/entries\.map is not a function/)).not.toBeInTheDocument();
  });

  it('shows the error text when the flag is on', () => {
    renderBroken(true);
    expect(screen.getByText(/entries\.map is not a function/)).toBeInTheDocument();
  });

  it('follows the build mode by default (development shows details)', () => {
    renderBroken();
    if (import.meta.env.DEV) expect(screen.getByText(/entries\.map is not a function/)).toBeInTheDocument();
    else expect(screen.queryByText(/entries\.map is not a function/)).not.toBeInTheDocument();
  });
});
