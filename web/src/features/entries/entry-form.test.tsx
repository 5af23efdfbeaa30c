import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_TIERS, payFor } from '@/lib/pay';
import { localDay } from '@/lib/week';
import type * as Commands from '@/sync/commands';
import { saveEntry } from '@/sync/commands';
import { renderWithSync } from '@/testing/render-with-sync';
import { createTestSyncHandle } from '@/testing/sync-handle';
import { EntryForm, SUCCESS_MESSAGE_MS } from './entry-form';

// The real command, wrapped so a test can hold a save in flight or make it fail.
vi.mock('@/sync/commands', async (importOriginal) => {
  const real = await importOriginal<typeof Commands>();
  return { ...real, saveEntry: vi.fn(real.saveEntry) };
});

function setup(tiers = DEFAULT_TIERS) {
  const app = renderWithSync(<EntryForm tiers={tiers} />);
  const field = (name: string) => screen.getByLabelText(name, { exact: false }) as HTMLInputElement;
  return {
    ...app,
    date: () => field('Date'),
    stops: () => field('Stops'),
    extra: () => field('Extra'),
    notes: () => field('Notes'),
    submit: () => screen.getByRole('button', { name: /Save Entry|Saving/ }),
  };
}

describe('EntryForm', () => {
  it('starts on today (local) with empty fields', () => {
    const form = setup();
    expect(form.date().value).toBe(localDay(new Date()));
    expect(form.stops().value).toBe('');
    expect(form.extra().value).toBe('');
    expect(form.notes().value).toBe('');
    expect(form.stops()).toBeRequired();
    expect(form.date()).toBeRequired();
  });

  it('asks for the stops and stores nothing without them', async () => {
    const form = setup();
    await form.user.click(form.submit());

    expect(await screen.findByText('Please enter number of stops')).toBeInTheDocument();
    expect(form.stops()).toHaveAttribute('aria-invalid', 'true');
    expect(form.stops()).toHaveAccessibleDescription('Please enter number of stops');
    expect(await form.handle.db.entries.count()).toBe(0);
    expect(form.handle.requestSync).not.toHaveBeenCalled();
  });

  it('saves on the device with the tiered total, nudges sync, confirms and resets', async () => {
    const form = setup();
    await form.user.clear(form.date());
    await form.user.type(form.date(), '2025-03-20');
    await form.user.type(form.stops(), '120');
    await form.user.type(form.extra(), '5.5');
    await form.user.type(form.notes(), 'Rain all day');
    await form.user.click(form.submit());

    expect(await screen.findByText('Entry saved successfully!')).toBeInTheDocument();
    const [entry] = await form.handle.db.entries.toArray();
    expect(entry).toMatchObject({
      date: '2025-03-20',
      stops: 120,
      extra: 550,
      notes: 'Rain all day',
      total: 110 * 198 + 10 * 148 + 550,
      syncState: 'pending',
      deleted: 0,
    });
    expect(await form.handle.db.outbox.count()).toBe(1);
    expect(form.handle.requestSync).toHaveBeenCalledTimes(1);

    expect(form.date().value).toBe(localDay(new Date()));
    expect(form.stops().value).toBe('');
    expect(form.extra().value).toBe('');
    expect(form.notes().value).toBe('');
  });

  it('hides the success message after 3 s', async () => {
    // The database schedules its own work with setTimeout, so the clock cannot be faked
    // here; instead, catch the message's timer and run it.
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const form = setup();
    await form.user.type(form.stops(), '10');
    await form.user.click(form.submit());
    await screen.findByText('Entry saved successfully!');

    const hideTimers = () => timers.mock.calls.filter(([, ms]) => ms === SUCCESS_MESSAGE_MS);
    expect(SUCCESS_MESSAGE_MS).toBe(3_000);
    // The timer starts in an effect, which may run just after the message is found.
    await waitFor(() => expect(hideTimers()).toHaveLength(1));
    const hide = hideTimers();
    act(() => (hide[0]![0] as () => void)());
    expect(screen.queryByText('Entry saved successfully!')).not.toBeInTheDocument();
  });

  it.each([
    ['0.1', 10],
    ['0.30', 30],
    ['1.15', 115],
    ['4.35', 435],
    ['19.99', 1999],
  ])('stores extra £%s as exactly %i pence', async (typed, pence) => {
    const form = setup();
    await form.user.type(form.stops(), '0');
    await form.user.type(form.extra(), typed);
    await form.user.click(form.submit());
    await screen.findByText('Entry saved successfully!');
    const [entry] = await form.handle.db.entries.toArray();
    expect(entry).toMatchObject({ extra: pence, total: pence });
  });

  it('refuses extra with more than two decimals instead of rounding it', async () => {
    const form = setup();
    await form.user.type(form.stops(), '10');
    await form.user.type(form.extra(), '12.345');
    await form.user.click(form.submit());

    expect(await screen.findByText('Enter extra pay in pounds and pence, e.g. 12.50')).toBeInTheDocument();
    expect(form.extra().value).toBe('12.345');
    expect(await form.handle.db.entries.count()).toBe(0);
  });

  it('prices the day with the tiers it is given', async () => {
    const form = setup([{ stopCount: 10, rate: 100 }, { rate: 50 }]);
    await form.user.type(form.stops(), '12');
    expect(screen.getByText('£11.00')).toBeInTheDocument(); // the live day total
    await form.user.click(form.submit());
    await screen.findByText('Entry saved successfully!');
    expect((await form.handle.db.entries.toArray())[0]?.total).toBe(10 * 100 + 2 * 50);
    expect(payFor(DEFAULT_TIERS, 12)).not.toBe(1100); // so this test really tells the tiers apart
  });

  it('waits for the tiers before it can save', async () => {
    renderWithSync(<EntryForm tiers={undefined} />);
    expect(screen.getByRole('button', { name: 'Save Entry' })).toBeDisabled();
  });

  it('says Saving... and is disabled while the save is in flight', async () => {
    let finish: () => void = () => undefined;
    vi.mocked(saveEntry).mockImplementationOnce(
      (db, content) => new Promise((resolve) => (finish = () => resolve(vi.mocked(saveEntry).getMockImplementation()!(db, content)))),
    );
    const form = setup();
    await form.user.type(form.stops(), '10');
    await form.user.click(form.submit());

    expect(form.submit()).toHaveTextContent('Saving...');
    expect(form.submit()).toBeDisabled();
    await act(async () => finish());
    expect(await screen.findByText('Entry saved successfully!')).toBeInTheDocument();
    expect(form.submit()).toHaveTextContent('Save Entry');
    expect(form.submit()).toBeEnabled();
  });

  it('reports a failed save and keeps what was typed', async () => {
    vi.mocked(saveEntry).mockRejectedValueOnce(new Error('DatabaseClosedError'));
    const form = setup();
    await form.user.type(form.stops(), '10');
    await form.user.click(form.submit());

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to save entry');
    expect(screen.queryByText('Entry saved successfully!')).not.toBeInTheDocument();
    expect(form.stops().value).toBe('10');
    expect(form.handle.requestSync).not.toHaveBeenCalled();
  });

  it('shows its short sync indicator', () => {
    const handle = createTestSyncHandle();
    renderWithSync(<EntryForm tiers={DEFAULT_TIERS} />, { handle });
    expect(screen.getByText('All changes saved')).toBeInTheDocument();
    act(() => handle.emit({ state: 'syncing' }));
    expect(screen.getByText('Syncing...')).toBeInTheDocument();
    act(() => handle.emit({ state: 'offline' }));
    expect(screen.getByText('Working offline')).toBeInTheDocument();
    act(() => handle.emit({ state: 'pending', count: 2 }));
    expect(screen.getByText('Syncing...')).toBeInTheDocument();
    act(() => handle.emit({ state: 'pending', count: 2, offline: true }));
    expect(screen.getByText('Working offline')).toBeInTheDocument();
    act(() => handle.emit({ state: 'error', message: 'x' }));
    expect(screen.getByText('Sync error')).toBeInTheDocument();
  });

  it('clears a field error once the field is edited', async () => {
    const form = setup();
    await form.user.click(form.submit());
    await screen.findByText('Please enter number of stops');
    await form.user.type(form.stops(), '1');
    await waitFor(() => expect(screen.queryByText('Please enter number of stops')).not.toBeInTheDocument());
  });
});
