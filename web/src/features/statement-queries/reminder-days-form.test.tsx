import 'fake-indexeddb/auto';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { putSettings } from '@/sync/commands';
import { renderWithSync } from '@/testing/render-with-sync';
import { createTestSyncHandle } from '@/testing/sync-handle';
import { ReminderDaysForm } from './reminder-days-form';

const label = 'Remind me when a sent query has had no answer for (days)';

describe('the query reminder’s days', () => {
  it('shows 14 until chosen, refuses what is not 1 to 90 without saving, and saves only the days', async () => {
    const { handle, user } = renderWithSync(<ReminderDaysForm />);
    const field = await screen.findByLabelText(label);
    expect(field).toHaveValue('14');
    for (const bad of ['0', '91', '2.5']) {
      await user.clear(field);
      await user.type(field, bad);
      await user.click(screen.getByRole('button', { name: 'Save days' }));
      expect(await screen.findByText('Choose 1 to 90 days')).toBeInTheDocument();
      expect(field).toHaveAttribute('aria-invalid', 'true');
    }
    expect(await handle.db.outbox.count()).toBe(0);

    await user.clear(field);
    await user.type(field, '30');
    await user.click(screen.getByRole('button', { name: 'Save days' }));
    expect(await screen.findByText('Saved on this device; it syncs when you are online.')).toBeInTheDocument();
    expect(screen.queryByText('Choose 1 to 90 days')).not.toBeInTheDocument();
    const items = await handle.db.outbox.toArray();
    expect(items.map((i) => [i.name, i.args])).toEqual([['settings.put', { queryReminderDays: 30 }]]);
    expect(handle.requestSync).toHaveBeenCalledTimes(1);
    expect(field).toHaveValue('30');
  });

  it('shows the days stored, as set on another screen or device', async () => {
    const handle = createTestSyncHandle();
    await putSettings(handle.db, { queryReminderDays: 21 });
    renderWithSync(<ReminderDaysForm />, { handle });
    await waitFor(() => expect(screen.getByLabelText(label)).toHaveValue('21'));
  });
});
