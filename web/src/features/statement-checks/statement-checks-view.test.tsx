import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_TIERS, payFor } from '@/core/pay/pay';
import { addDays, weekdayOf } from '@/lib/week';
import { renderWithSync } from '@/testing/render-with-sync';
import { createTestSyncHandle, makeEntry } from '@/testing/sync-handle';
import type { LocalCourier, LocalDeduction, LocalStatementCheck } from '@/sync/types';
import { StatementChecksView } from './statement-checks-view';
import { readStatementChecks } from './use-statement-checks';

const stamp = { createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z', deleted: 0, syncState: 'synced', server: null } as const;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2025, 3, 8, 9, 0)); // Tue 08/04/2025: the period after the one checked
});
afterEach(() => vi.useRealTimers());

async function fourFourFiveDriver() {
  const handle = createTestSyncHandle();
  const courierId = handle.db.userId;
  const courier: LocalCourier = { id: courierId, name: 'DPD', colour: '#dc0032', periodKind: 'fourFourFive', periodAnchor: '2025-01-05', arrearsWeeks: 2, ...stamp };
  const other: LocalCourier = { id: 'courier-evri', name: 'Evri', colour: '#00a0df', periodKind: 'weekly', periodAnchor: '2000-01-02', arrearsWeeks: 0, ...stamp };
  const deductions: LocalDeduction[] = [
    { id: 'van', courierId, label: 'Van hire', amount: 19_500, repeat: 'weekly', from: '2025-01-06', to: null, purpose: null, vehicleId: null, ...stamp },
    { id: 'admin', courierId, label: 'Admin fee', amount: 1_250, repeat: 'once', from: '2025-03-10', to: null, purpose: null, vehicleId: null, ...stamp },
  ];
  // Sun 02/03 – Sat 05/04/2025 (35 days): Monday to Friday, 100, 101, … stops.
  const days = Array.from({ length: 35 }, (_, i) => addDays('2025-03-02', i)).filter((d) => weekdayOf(d) !== 0 && weekdayOf(d) !== 6);
  const entries = days.map((date, i) => makeEntry({ date, stops: 100 + i, total: payFor(DEFAULT_TIERS, 100 + i), courierId, rateCardId: courierId }));
  await handle.db.couriers.bulkPut([courier, other]);
  await handle.db.deductions.bulkPut(deductions);
  await handle.db.entries.bulkPut([...entries, makeEntry({ date: '2025-03-12', stops: 50, total: 9_900, courierId: 'courier-evri' })]);
  const gross = entries.reduce((sum, e) => sum + e.total, 0);
  return { handle, entries, gross, logDeductions: 5 * 19_500 + 1_250 };
}

function renderView(handle: ReturnType<typeof createTestSyncHandle>, entries: Parameters<typeof StatementChecksView>[0]['entries'], checks: LocalStatementCheck[] = []) {
  return renderWithSync(<StatementChecksView checks={checks} entries={entries} parkedReasons={new Map()} today="2025-04-08" onDelete={() => undefined} />, { handle });
}

describe('statement checks of a 4-4-5 courier', () => {
  it('lists the periods newest first, imports a statement CSV, and names the missing day and the extra charge', async () => {
    const { handle, entries, gross, logDeductions } = await fourFourFiveDriver();
    const all = await handle.db.entries.toArray();
    const { user } = renderView(handle, all);

    expect(await screen.findByText('DPD: 4-4-5 from 05/01/2025, paid 2 weeks in arrears.')).toBeInTheDocument();
    const periods = within(screen.getByRole('list', { name: 'Pay periods' })).getAllByRole('listitem');
    expect(periods.map((p) => p.getAttribute('aria-label'))).toEqual(['Pay period 06/04/2025 – 03/05/2025', 'Pay period 02/03/2025 – 05/04/2025']);
    const period = periods[1]!;
    expect(period).toHaveTextContent(`25 days, 2,800 stops`);
    expect(period).toHaveTextContent('pay due 19/04/2025');
    expect(period).toHaveTextContent('No statement checked yet');

    await user.click(within(period).getByRole('button', { name: 'Check statement' }));
    const form = within(period).getByRole('form', { name: 'Check statement 02/03/2025 – 05/04/2025' });
    // Short by Tue 11/03 (106 stops, £209.88) and with the admin fee taken twice.
    const missing = entries.find((e) => e.date === '2025-03-11')!;
    const deductions = logDeductions + 1_250;
    const paid = gross - missing.total - deductions;
    const pounds = (p: number) => `"£${(p / 100).toLocaleString('en-GB', { minimumFractionDigits: 2 })}"`;
    const csv = `Statement,Total Paid (£),Stops,Deductions\nDPD 2025 P3,${pounds(paid)},${2_800 - 106},${pounds(deductions)}\n`;
    await user.upload(within(form).getByLabelText('Statement CSV file'), new File([csv], 'dpd-p3.csv', { type: 'text/csv' }));
    expect(await within(form).findByText('Read 1 row from dpd-p3.csv. Check the figures, then save.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Net paid, after deductions (£)')).toHaveValue(String(paid / 100).replace(/(\.\d)$/, '$10'));
    expect(within(form).getByLabelText('Stops (optional)')).toHaveValue('2694');
    // Compared before it is saved: the result in words and what explains it.
    const live = within(form).getByRole('region', { name: 'Compared with your log' });
    expect(live).toHaveTextContent(`Result: £${((missing.total + 1_250) / 100).toFixed(2)} short`);
    expect(within(live).getByRole('list', { name: 'What explains it' })).toHaveTextContent('Tue 11/03/2025 (106 stops, £209.88) is missing from the statement.');

    await user.selectOptions(within(form).getByLabelText('Your status'), 'disputed');
    await user.type(within(form).getByLabelText('Note (optional)'), 'Emailed depot about 11/03');
    await user.click(within(form).getByRole('button', { name: 'Save check' }));

    const saved = await readStatementChecks(handle.db);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ courierId: handle.db.userId, periodStart: '2025-03-02', periodEnd: '2025-04-05', paid, stops: 2_694, deductions, status: 'disputed', note: 'Emailed depot about 11/03' });
  });

  it('shows a saved check line by line with its result in words, the driver’s status apart, and compares edits live', async () => {
    const { handle, entries, gross, logDeductions } = await fourFourFiveDriver();
    const missing = entries.find((e) => e.date === '2025-03-11')!;
    const check: LocalStatementCheck = {
      id: 'check-1',
      periodStart: '2025-03-02',
      periodEnd: '2025-04-05',
      courierId: handle.db.userId,
      paid: gross - missing.total - logDeductions - 1_250,
      stops: 2_694,
      parcels: null,
      collections: null,
      deductions: logDeductions + 1_250,
      reference: '',
      status: 'disputed',
      note: 'Emailed depot',
      ...stamp,
    };
    const { user } = renderView(handle, await handle.db.entries.toArray(), [check]);
    const card = await screen.findByRole('article', { name: 'Statement check 02/03/2025 – 05/04/2025' });
    expect(card).toHaveTextContent('Result: £222.38 short');
    expect(card).toHaveTextContent('Your status: Disputed');
    expect(card).toHaveTextContent('Synced');
    expect(card).toHaveTextContent('Note: Emailed depot');
    const rows = within(card).getAllByRole('row').map((row) => within(row).queryAllByRole('cell').map((cell) => cell.textContent));
    expect(rows.slice(1)).toEqual([
      ['2,800', '2,694', '−106'],
      [`£${(gross / 100).toLocaleString('en-GB', { minimumFractionDigits: 2 })}`, `£${((gross - missing.total) / 100).toLocaleString('en-GB', { minimumFractionDigits: 2 })}`, '−£209.88'],
      ['£987.50', '£1,000.00', '+£12.50'],
      [expect.any(String), expect.any(String), '−£222.38'],
    ]);
    const findings = within(within(card).getByRole('list', { name: 'What explains it' })).getAllByRole('listitem').map((li) => li.textContent);
    expect(findings).toEqual(['Tue 11/03/2025 (106 stops, £209.88) is missing from the statement.', 'Admin fee on 10/03/2025 (£12.50) is charged twice.']);

    // Editing to the log's own figures: the comparison follows each keystroke, before Save.
    await user.click(within(card).getByRole('button', { name: 'Edit statement check 02/03/2025 – 05/04/2025' }));
    const form = screen.getByRole('form', { name: 'Edit statement check 02/03/2025 – 05/04/2025' });
    const field = (label: string) => within(form).getByLabelText(label);
    const live = within(form).getByRole('region', { name: 'Compared with your log' });
    await user.clear(field('Net paid, after deductions (£)'));
    expect(live).toHaveTextContent('Enter the net paid to compare it with your log.');
    await user.type(field('Net paid, after deductions (£)'), String((gross - logDeductions) / 100));
    await user.clear(field('Stops (optional)'));
    await user.type(field('Stops (optional)'), '2800');
    // The net is right now, but the statement's gross and deductions are both £12.50 higher.
    expect(live).toHaveTextContent('Result: Net matches, lines differ');
    await user.clear(field('Deductions taken (£) (optional)'));
    await user.type(field('Deductions taken (£) (optional)'), '987.50');
    expect(live).toHaveTextContent('Result: Matches');
    expect(live).toHaveTextContent('Every line agrees with your log.');
    // The driver's own status is theirs to set: the result does not change it.
    expect(field('Your status')).toHaveValue('disputed');
  });

  it('offers the courier picker when there are several, and says why a CSV cannot be read', async () => {
    const { handle } = await fourFourFiveDriver();
    const { user } = renderView(handle, await handle.db.entries.toArray());
    await user.selectOptions(await screen.findByLabelText('Courier'), 'courier-evri');
    expect(await screen.findByText('Evri: Weekly from Sunday.')).toBeInTheDocument();
    const period = screen.getByRole('listitem', { name: 'Pay period 09/03/2025 – 15/03/2025' });
    expect(period).toHaveTextContent('1 day, 50 stops · £99.00 gross');
    await user.click(within(period).getByRole('button', { name: 'Check statement' }));
    const form = within(period).getByRole('form');
    await user.upload(within(form).getByLabelText('Statement CSV file'), new File(['Date,Stops\n2025-03-12,50\n'], 'wrong.csv', { type: 'text/csv' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('No column named Total or Paid.');
  });
});
