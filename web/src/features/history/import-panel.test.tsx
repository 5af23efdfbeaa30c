import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { seedDefaultCourier } from '@/testing/pay-fixtures';
import { renderWithSync } from '@/testing/render-with-sync';
import { createTestSyncHandle } from '@/testing/sync-handle';
import { ImportPanel } from './import-panel';

const ORIGINAL = 'Date,Stops,Extra,Total\r\n21/03/2025,120,2.50,220.30\r\n22/03/2025,lots,0,100\r\n23/03/2025,95,,180\r\n';

function file(text: string, name: string) {
  return new File([text], name, { type: name.endsWith('.json') ? 'application/json' : 'text/csv' });
}

describe('ImportPanel', () => {
  it("previews the original app's CSV, writes only after confirming, and writes nothing the second time", async () => {
    const handle = createTestSyncHandle();
    await seedDefaultCourier(handle.db);
    const { user } = renderWithSync(<ImportPanel />, { handle });

    await user.upload(screen.getByLabelText('File to import'), file(ORIGINAL, 'old-app.csv'));
    expect(await screen.findByText('New: 2 days')).toBeInTheDocument();
    expect(screen.getByText(/the original app's CSV/)).toBeInTheDocument();
    const invalid = screen.getByRole('list', { name: '1 invalid row, not imported' });
    expect(within(invalid).getByText('Row 3')).toBeInTheDocument();
    expect(invalid).toHaveTextContent('Stops must be a whole number from 0 to 1000');
    // The preview wrote nothing.
    expect(await handle.db.entries.count()).toBe(0);
    expect(await handle.db.outbox.count()).toBe(0);

    await user.click(screen.getByRole('button', { name: 'Import 2 records' }));
    expect(await screen.findByText(/Imported 2 days from old-app.csv/)).toBeInTheDocument();
    const days = await handle.db.entries.orderBy('date').toArray();
    expect(days.map((d) => [d.date, d.stops, d.extra, d.total, d.courierId, d.syncState])).toEqual([
      ['2025-03-21', 120, 250, 22_030, handle.db.userId, 'pending'],
      ['2025-03-23', 95, 0, 18_000, handle.db.userId, 'pending'],
    ]);
    // Through the outbox like any change, and the engine is nudged.
    expect((await handle.db.outbox.toArray()).map((item) => item.name)).toEqual(['entry.put', 'entry.put']);
    expect(handle.requestSync).toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Import another file' }));
    await user.upload(screen.getByLabelText('File to import'), file(ORIGINAL, 'old-app.csv'));
    expect(await screen.findByText('Nothing new to import.')).toBeInTheDocument();
    expect(screen.getByText('2 duplicates, skipped')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Nothing to import' })).toBeDisabled();
    expect(await handle.db.entries.count()).toBe(2);
  });

  it('asks which column is which for any other CSV, then previews through that mapping', async () => {
    const handle = createTestSyncHandle();
    await seedDefaultCourier(handle.db);
    const { user } = renderWithSync(<ImportPanel />, { handle });

    await user.upload(screen.getByLabelText('File to import'), file('When,Drops,Earned\n2025-03-03,110,200.00\n', 'sheet.csv'));
    expect(await screen.findByText('Choose a column for Date, Total (£)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Preview import' })).toBeDisabled();
    await user.selectOptions(screen.getByLabelText('Date'), 'When (e.g. 2025-03-03)');
    await user.selectOptions(screen.getByLabelText('Total (£)'), 'Earned (e.g. 200.00)');
    await user.click(screen.getByRole('button', { name: 'Preview import' }));
    expect(await screen.findByText('New: 1 day')).toBeInTheDocument();
    expect(screen.getByText('No invalid rows.')).toBeInTheDocument();
  });

  it('says which way it read dates that fit both readings, and reads them the other way on request', async () => {
    const handle = createTestSyncHandle();
    await seedDefaultCourier(handle.db);
    const { user } = renderWithSync(<ImportPanel />, { handle });

    await user.upload(screen.getByLabelText('File to import'), file('Date;Stops;Extra;Total\n02/01/2026;100;1,50;200,25\n', 'sheet.csv'));
    expect(await screen.findByText(/Dates are read day first, like 31\/01\/2026: every date here could be read either way/)).toBeInTheDocument();
    expect(screen.getByText(/the original app's CSV, separated by semicolons, with amounts like 12,50\./)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Read dates month first instead' }));
    expect(await screen.findByText('Dates are read month first, like 01/31/2026, as you chose.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Read dates day first instead' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Import 1 record' }));
    expect(await screen.findByText(/Imported 1 day from sheet.csv/)).toBeInTheDocument();
    const days = await handle.db.entries.toArray();
    expect(days.map((d) => [d.date, d.extra, d.total])).toEqual([['2026-02-01', 150, 20_025]]);
  });

  it('reads a file with a date only the US reading fits month first, and says so', async () => {
    const handle = createTestSyncHandle();
    await seedDefaultCourier(handle.db);
    const { user } = renderWithSync(<ImportPanel />, { handle });
    await user.upload(screen.getByLabelText('File to import'), file('Date,Stops,Extra,Total\n01/31/2026,100,0,200\n02/01/2026,90,0,180\n', 'us.csv'));
    expect(await screen.findByText("Dates are read month first, like 01/31/2026, as the file's dates show.")).toBeInTheDocument();
    expect(screen.getByText('New: 2 days')).toBeInTheDocument();
  });

  it('says why a file cannot be imported at all', async () => {
    const { user } = renderWithSync(<ImportPanel />);
    await user.upload(screen.getByLabelText('File to import'), file('{"format":"something-else"}', 'other.json'));
    expect(await screen.findByRole('alert')).toHaveTextContent('This JSON file is not a Delivery Tracker export.');
  });
});
