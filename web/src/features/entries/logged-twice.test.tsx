// First: the on-device database must exist before Dexie loads.
import { createTestSyncHandle, makeEntry, type TestSyncHandle } from '@/testing/sync-handle';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { usePaySetup } from '@/lib/sync-react/use-pay-setup';
import { renderWithSync } from '@/testing/render-with-sync';
import { LoggedTwice } from './logged-twice';
import { useEntries } from './use-entries';

function Live() {
  return <LoggedTwice entries={useEntries()} pay={usePaySetup()} />;
}

const A = '0190a6e2-0000-7000-8000-00000000000a';
const B = '0190a6e2-0000-7000-8000-00000000000b';

async function setup(...entries: Parameters<typeof makeEntry>[0][]) {
  const handle: TestSyncHandle = createTestSyncHandle();
  await handle.db.entries.bulkPut(entries.map((entry) => makeEntry(entry)));
  const app = renderWithSync(<Live />, { handle });
  return { ...app, handle, panel: () => screen.findByRole('region', { name: 'Logged twice' }) };
}

const liveIds = async (handle: TestSyncHandle) => (await handle.db.entries.toArray()).filter((e) => e.deleted === 0).map((e) => e.id);

describe('LoggedTwice', () => {
  it('shows nothing when no day is logged twice', async () => {
    const { handle } = await setup({ date: '2025-11-27' }, { date: '2025-11-27', separateShift: true }, { date: '2025-11-28' });
    await waitFor(async () => expect(await handle.db.entries.count()).toBe(3));
    expect(screen.queryByRole('region', { name: 'Logged twice' })).not.toBeInTheDocument();
  });

  it('merges two equal copies in one step, and Undo brings the copy back', async () => {
    const app = await setup({ id: A, date: '2025-11-27', stops: 128, total: 24_444 }, { id: B, date: '2025-11-27', stops: 128, total: 24_444, notes: 'Rain' });
    const panel = await app.panel();
    expect(panel).toHaveTextContent('Every copy counts in your totals (£488.88 in all)');
    const day = within(panel).getByRole('article', { name: 'Thu 27/11/2025: 2 copies' });
    expect(within(day).queryByRole('radio')).not.toBeInTheDocument();
    await app.user.click(within(day).getByRole('button', { name: 'Merge into one day' }));
    await waitFor(async () => expect(await liveIds(app.handle)).toEqual([A]));
    expect(await app.handle.db.entries.get(A)).toMatchObject({ total: 24_444, notes: 'Rain' });
    expect(within(panel).getByRole('status')).toHaveTextContent('Merged Thu 27/11/2025 into one day');

    await app.user.click(within(panel).getByRole('button', { name: 'Undo' }));
    await waitFor(async () => expect((await liveIds(app.handle)).sort()).toEqual([A, B]));
  });

  it('asks whose figures to keep when the copies differ, the last changed chosen first', async () => {
    const app = await setup(
      { id: A, date: '2025-11-27', stops: 128, total: 24_444, updatedAt: '2025-11-27T18:00:00Z' },
      { id: B, date: '2025-11-27', stops: 130, total: 24_740, updatedAt: '2025-11-27T19:00:00Z' },
    );
    const panel = await app.panel();
    const radios = within(panel).getAllByRole('radio');
    expect(radios.map((radio) => radio.closest('label')?.textContent)).toEqual(['128 stops · £244.44', '130 stops · £247.40']);
    expect(radios[1]).toBeChecked();
    await app.user.click(radios[0]!);
    await app.user.click(within(panel).getByRole('button', { name: 'Merge into one day' }));
    await waitFor(async () => expect(await liveIds(app.handle)).toEqual([A]));
    expect(await app.handle.db.entries.get(A)).toMatchObject({ stops: 128, total: 24_444 });
  });

  it('keeps both as separate shifts, and the flag does not come back', async () => {
    const app = await setup({ id: A, date: '2025-11-27' }, { id: B, date: '2025-11-27' });
    const panel = await app.panel();
    await app.user.click(within(panel).getByRole('button', { name: 'Keep both as shifts' }));
    await waitFor(async () => expect((await app.handle.db.entries.get(B))?.separateShift).toBe(true));
    expect(within(panel).getByRole('status')).toHaveTextContent('Kept Thu 27/11/2025 as 2 separate shifts');
    await waitFor(() => expect(within(panel).queryByRole('article')).not.toBeInTheDocument());
    await app.user.click(within(panel).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Logged twice' })).not.toBeInTheDocument());
  });
});
