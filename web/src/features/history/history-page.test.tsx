import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithSync } from '@/testing/render-with-sync';
import { createTestSyncHandle, makeEntry } from '@/testing/sync-handle';
import { HistoryPage } from './history-page';

describe('HistoryPage', () => {
  it('lists every live entry, newest first', async () => {
    const handle = createTestSyncHandle();
    await handle.db.entries.bulkPut([
      makeEntry({ date: '2025-01-02', notes: 'second' }),
      makeEntry({ date: '2024-12-31', notes: 'first' }),
      makeEntry({ date: '2025-03-21', notes: 'gone', deleted: 1 }),
      makeEntry({ date: '2025-03-20', notes: 'fourth' }),
      makeEntry({ date: '2025-02-10', notes: 'third' }),
      makeEntry({ date: '2025-03-20', notes: 'fifth' }),
    ]);
    renderWithSync(<HistoryPage />, { handle, path: '/app/history' });

    expect(screen.getByRole('heading', { level: 1, name: 'All Entries' })).toBeInTheDocument();
    expect(await screen.findByText('5 entries, newest first')).toBeInTheDocument();
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => within(item).getByText(/first|second|third|fourth|fifth/).textContent)).toEqual([
      'fifth',
      'fourth',
      'third',
      'second',
      'first',
    ]);
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/app/dashboard');
  });

  it('says so when there is nothing yet', async () => {
    renderWithSync(<HistoryPage />, { path: '/app/history' });
    expect(await screen.findByText('No entries yet.')).toBeInTheDocument();
  });
});
