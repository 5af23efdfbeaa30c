import 'fake-indexeddb/auto';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { saveEntry } from '@/sync/commands';
import type { EntryContent } from '@/sync/types';
import { addDays, localDay } from '@/lib/week';
import { createTestSyncHandle } from '@/testing/sync-handle';
import { renderWithSync } from '@/testing/render-with-sync';
import { sha256Hex } from '@/core/mtd/sha256';
import { dismissalKey } from './dismissals';
import { RemindersCard } from './reminders-card';

// The card reads the real clock: the log is placed relative to today.
const today = localDay(new Date());

function entry(date: string): EntryContent {
  return { date, stops: 100, extra: 0, notes: '', total: 19_800, courierId: 'c', rateCardId: null, parcels: null, collections: null, failed: null, startTime: null, finishTime: null, separateShift: false, bands: null };
}

describe('RemindersCard', () => {
  beforeEach(() => localStorage.clear());

  it('shows nothing when nothing is due', async () => {
    const handle = createTestSyncHandle();
    const { container } = renderWithSync(<RemindersCard />, { handle });
    // Let the live queries answer before judging the empty render.
    await waitFor(async () => expect(await handle.db.entries.count()).toBe(0));
    expect(container).toBeEmptyDOMElement();
  });

  it('reminds of a missed usual day and of waiting receipts, and hides one for 7 days', async () => {
    const handle = createTestSyncHandle();
    // Worked the same weekday for 5 weeks, then missed it a week ago.
    for (const weeksBack of [2, 3, 4, 5, 6]) await saveEntry(handle.db, entry(addDays(today, -7 * weeksBack)));
    await handle.db.receiptPhotos.bulkPut([
      { id: 'r1', holderId: 'e', blob: new Blob(['x']), type: 'image/jpeg', bytes: 1, createdAt: 1, uploadedAt: null, error: null },
      { id: 'r2', holderId: 'e', blob: new Blob(['x']), type: 'image/jpeg', bytes: 1, createdAt: 1, uploadedAt: null, error: null },
      { id: 'r3', holderId: 'e', blob: new Blob(['x']), type: 'image/jpeg', bytes: 1, createdAt: 1, uploadedAt: 5, error: null },
    ]);
    const app = renderWithSync(<RemindersCard />, { handle });

    expect(await screen.findByRole('heading', { name: 'Reminders' })).toBeInTheDocument();
    const missed = addDays(today, -7);
    const words = `${new Intl.DateTimeFormat('en-GB', { weekday: 'short', timeZone: 'UTC' }).format(new Date(`${missed}T00:00:00Z`))} ${missed.slice(8)}/${missed.slice(5, 7)}`;
    expect(screen.getByText(`No day logged for ${words}`)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log a day' })).toHaveAttribute('href', '/app/dashboard#log-day');
    expect(screen.getByText('2 receipt photos are waiting to upload')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open expenses' })).toHaveAttribute('href', '/app/spending?view=expenses');

    await app.user.click(screen.getByRole('button', { name: 'Hide for 7 days: 2 receipt photos are waiting to upload' }));
    await waitFor(() => expect(screen.queryByText('2 receipt photos are waiting to upload')).not.toBeInTheDocument());
    expect(screen.getByText(`No day logged for ${words}`)).toBeInTheDocument();
    expect(Object.keys(JSON.parse(localStorage.getItem(dismissalKey(handle.db.userId)) ?? '{}'))).toEqual(['receipts']);

    // The last one hidden: the card goes away.
    await app.user.click(screen.getByRole('button', { name: `Hide for 7 days: No day logged for ${words}` }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Reminders' })).not.toBeInTheDocument());
  });

  it('says a sent quarter changed since, by how much and where it goes, with a link to that year’s updates', async () => {
    const handle = createTestSyncHandle();
    // Q1 2025-26 was sent with no turnover; a £198.00 day of that quarter was saved afterwards.
    const file = `${JSON.stringify({ periodDates: { periodStartDate: '2025-04-06', periodEndDate: '2025-07-05' }, periodIncome: { turnover: 0 }, periodExpenses: {} }, null, 2)}\n`;
    const stamp = '2025-08-01T10:00:00.000Z';
    await handle.db.sentUpdates.put({
      id: 's1', taxYear: '2025-26', quarter: 1, quarters: 'standard', periodStart: '2025-04-06', periodEnd: '2025-07-05', shape: 'itemised', file, sha256: sha256Hex(file),
      sentOn: '2025-08-01', product: 'Bridger', reference: '', supersedes: null, createdAt: stamp, updatedAt: stamp, deleted: 0, syncState: 'synced', server: null,
    });
    await saveEntry(handle.db, entry('2025-05-10'));
    renderWithSync(<RemindersCard />, { handle });
    const text = 'Your Q1 2025–26 records changed since the update was sent: Turnover +£198.00. The change goes into your next cumulative update (Q2).';
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the updates' })).toHaveAttribute('href', '/app/tax?year=2025-26#tax-updates');
  });
});
