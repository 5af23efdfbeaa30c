import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithSync } from '@/testing/render-with-sync';
import { createTestSyncHandle, makeEntry } from '@/testing/sync-handle';
import { HistoryPage } from './history-page';

const path = '/app/history';

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
    renderWithSync(<HistoryPage />, { handle, path });

    expect(screen.getByRole('heading', { level: 1, name: 'All Entries' })).toBeInTheDocument();
    expect(await screen.findByText('5 entries, newest first')).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Entries' });
    const items = within(list).getAllByRole('listitem');
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
    renderWithSync(<HistoryPage />, { path });
    expect(await screen.findByText('No entries yet.')).toBeInTheDocument();
  });

  it('narrows to a date range from the URL and from the From/To fields', async () => {
    const handle = createTestSyncHandle();
    await handle.db.entries.bulkPut([
      makeEntry({ date: '2024-12-30', notes: 'old year' }),
      makeEntry({ date: '2025-01-02', notes: 'new year' }),
      makeEntry({ date: '2025-02-10', notes: 'february' }),
    ]);
    const { user } = renderWithSync(<HistoryPage />, { handle, path, at: `${path}?from=2025-01-01&to=2025-01-31` });
    expect(await screen.findByText('1 of 3 entries in this period')).toBeInTheDocument();
    expect(screen.getByText('new year')).toBeInTheDocument();
    expect(screen.queryByText('old year')).not.toBeInTheDocument();

    const from = screen.getByLabelText('From');
    await user.clear(from);
    await user.type(from, '2024-12-01');
    expect(await screen.findByText('2 of 3 entries in this period')).toBeInTheDocument();
    expect(screen.getByText('old year')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Period'), 'All time');
    expect(await screen.findByText('Showing all 3 entries')).toBeInTheDocument();
  });

  it('refuses a start date after the end date', async () => {
    const handle = createTestSyncHandle();
    await handle.db.entries.bulkPut([makeEntry({ date: '2025-01-02' })]);
    renderWithSync(<HistoryPage />, { handle, path, at: `${path}?from=2025-02-01&to=2025-01-01` });
    expect(await screen.findByText('The start date must be on or before the end date')).toBeInTheDocument();
    expect(screen.getByText('No entries in this period.')).toBeInTheDocument();
  });

  it('edits an entry in place, repricing it with the tiers, and queues it for sync', async () => {
    const handle = createTestSyncHandle();
    const entry = makeEntry({ date: '2025-03-20', stops: 100, total: 19_800 });
    await handle.db.entries.put(entry);
    const { user } = renderWithSync(<HistoryPage />, { handle, path });

    await user.click(await screen.findByRole('button', { name: 'Edit entry for 20/03/2025' }));
    const stops = screen.getByLabelText('Stops');
    await user.clear(stops);
    await user.type(stops, '120');
    await user.type(screen.getByLabelText('Extra (£)'), '5.50');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    // Default tiers: 110 at £1.98, then £1.48 → 217.80 + 14.80 + 5.50 extra.
    await waitFor(async () => expect(await handle.db.entries.get(entry.id)).toMatchObject({ stops: 120, extra: 550, total: 23_810, syncState: 'pending' }));
    const [item] = await handle.db.outbox.toArray();
    expect(item).toMatchObject({ name: 'entry.put', recordId: entry.id });
    expect(handle.requestSync).toHaveBeenCalled();
    expect(await screen.findByText('Entry updated')).toBeInTheDocument();
  });

  it('keeps a bad edit on screen with the reason', async () => {
    const handle = createTestSyncHandle();
    await handle.db.entries.put(makeEntry({ date: '2025-03-20', stops: 100 }));
    const { user } = renderWithSync(<HistoryPage />, { handle, path });
    await user.click(await screen.findByRole('button', { name: 'Edit entry for 20/03/2025' }));
    await user.clear(screen.getByLabelText('Stops'));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Please enter number of stops')).toBeInTheDocument();
    expect(await handle.db.outbox.count()).toBe(0);
  });

  it('deletes an entry and brings it back with Undo', async () => {
    const handle = createTestSyncHandle();
    const entry = makeEntry({ date: '2025-03-20', notes: 'depot run' });
    await handle.db.entries.put(entry);
    const { user } = renderWithSync(<HistoryPage />, { handle, path });

    await user.click(await screen.findByRole('button', { name: 'Delete entry for 20/03/2025' }));
    expect(await screen.findByText('Entry for 20/03/2025 deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('depot run')).not.toBeInTheDocument());
    expect((await handle.db.entries.get(entry.id))?.deleted).toBe(1);
    expect(await handle.db.outbox.count()).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('depot run')).toBeInTheDocument();
    expect(await handle.db.entries.get(entry.id)).toMatchObject({ deleted: 0, syncState: 'synced' });
    expect(await handle.db.outbox.count()).toBe(0);
    expect(screen.getByText('Entry restored')).toBeInTheDocument();
  });

  it('shows weekly and monthly summaries for the range', async () => {
    const handle = createTestSyncHandle();
    await handle.db.entries.bulkPut([
      makeEntry({ date: '2024-12-30', stops: 100, total: 19_800 }),
      makeEntry({ date: '2025-01-02', stops: 50, total: 9_900 }),
      makeEntry({ date: '2025-01-02', stops: 10, total: 1_980 }),
    ]);
    renderWithSync(<HistoryPage />, { handle, path, at: `${path}?view=summaries` });
    const weekly = await screen.findByRole('region', { name: 'Weekly summary' });
    // Sun 29/12/2024 – Sat 04/01/2025 is one week across the year end; two entries on 02/01 are one day.
    const week = within(weekly).getByRole('row', { name: /Week of 29\/12\/2024/ });
    expect(within(week).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['2', '160', '£316.80']);
    const monthly = screen.getByRole('region', { name: 'Monthly summary' });
    expect(within(monthly).getByRole('row', { name: /January 2025/ })).toHaveTextContent('£118.80');
    expect(within(monthly).getByRole('row', { name: /December 2024/ })).toHaveTextContent('£198.00');
    expect(screen.getByRole('region', { name: 'Stops and earnings per week' })).toBeInTheDocument();
  });

  it('checks a statement against the log and names the missing day', async () => {
    // The current period is the week after the one checked, so the list starts there.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 25, 9, 0));
    try {
      const handle = createTestSyncHandle();
      await handle.db.entries.bulkPut([
        makeEntry({ date: '2025-03-17', stops: 100, total: 19_800, courierId: handle.db.userId }),
        makeEntry({ date: '2025-03-18', stops: 120, total: 23_260, courierId: handle.db.userId }),
        makeEntry({ date: '2025-03-19', stops: 90, total: 17_820, courierId: handle.db.userId }),
      ]);
      const { user } = renderWithSync(<HistoryPage />, { handle, path, at: `${path}?view=invoices` });
      const period = await screen.findByRole('listitem', { name: 'Pay period 16/03/2025 – 22/03/2025' });
      expect(period).toHaveTextContent('3 days, 310 stops · £608.80 gross');
      await user.click(within(period).getByRole('button', { name: 'Check statement' }));
      const form = within(period).getByRole('form', { name: 'Check statement 16/03/2025 – 22/03/2025' });
      await user.type(within(form).getByLabelText('Total paid (£)'), '376.20');
      await user.click(within(form).getByRole('button', { name: 'Save check' }));

      const card = await screen.findByRole('article', { name: 'Statement check 16/03/2025 – 22/03/2025' });
      expect(card).toHaveTextContent('−£232.60');
      expect(card).toHaveTextContent('Tue 18/03/2025 (120 stops, £232.60) is missing from the statement.');
      expect(card).toHaveTextContent('Waiting to sync');
      const [item] = await handle.db.outbox.toArray();
      expect(item).toMatchObject({ name: 'invoice.put', args: { paid: 37_620, stops: null, periodStart: '2025-03-16', courierId: handle.db.userId } });
      expect(screen.getByText('1 of 10 towards Invoice Master')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});
