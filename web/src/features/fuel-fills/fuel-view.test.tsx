import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentTaxYear, taxYearBounds } from '@/core/tax/tax-year';
import { ECONOMY_RULE } from '@/core/fuel/economy';
import { addDays, localDay } from '@/lib/week';
import { saveRecord } from '@/sync/commands';
import { createTestSyncHandle } from '@/testing/sync-handle';
import { renderWithSync } from '@/testing/render-with-sync';
import { fillExpenseId, saveFuelFill, saveFuelFillAsExpense } from './commands';
import { deleteRecord } from '@/sync/commands';
import { COUNT_ONCE_WORDS, fillDayWords } from './fuel-words';
import { FuelView } from './fuel-view';

const today = localDay(new Date());
const year = currentTaxYear(today);
const firstDay = taxYearBounds(year).from;
const PATH = '/app/spending';
const van = { name: 'Transit', type: 'carVan', method: 'flatRate', commuteMiles: 0 } as const;
const fill = { unit: 'litres', quantity: 40_000, cost: 6_000, odometer: null, full: true, note: '' } as const;

describe('FuelView', () => {
  it('logs a fill on today and the only vehicle, and says fills are not expenses', async () => {
    const handle = createTestSyncHandle();
    const transit = await saveRecord(handle.db, 'vehicle', van);
    const app = renderWithSync(<FuelView />, { handle, path: PATH, at: `${PATH}?view=fuel&add=1` });

    const form = await screen.findByRole('form', { name: 'Log a fill' });
    expect(within(form).getByLabelText('Day')).toHaveValue(today);
    expect(within(form).getByLabelText('Vehicle')).toHaveDisplayValue('Transit');
    expect(screen.getByText(COUNT_ONCE_WORDS)).toBeInTheDocument();
    await app.user.type(within(form).getByLabelText('Litres'), '45.67');
    await app.user.type(within(form).getByLabelText('Cost (£)'), '68.45');
    await app.user.type(within(form).getByLabelText(/Odometer/), '42130');
    await app.user.click(within(form).getByRole('button', { name: 'Log fill' }));

    const line = await screen.findByRole('article', { name: `Fill on ${fillDayWords(today)}` });
    expect(line).toHaveTextContent('45.67 litres · £68.45');
    expect(line).toHaveTextContent('Full · odometer 42,130');
    const outbox = await handle.db.outbox.toArray();
    expect(outbox.map((item) => item.name)).toEqual(['vehicle.put', 'fuelFill.put']);
    expect(outbox[1]?.args).toMatchObject({ date: today, vehicleId: transit.id, unit: 'litres', quantity: 45_670, cost: 6_845, odometer: 42_130, full: true, note: '' });
    expect(app.router.state.location.search).toBe('?view=fuel');
    // Money counted once: nothing but the fill was written (no expense).
    expect(await handle.db.expenses.count()).toBe(0);
  });

  it('shows the tax year’s fills and cost, then mpg and pence a mile from full fills, by the rule it states', async () => {
    const handle = createTestSyncHandle();
    const transit = await saveRecord(handle.db, 'vehicle', van);
    await saveFuelFill(handle, { ...fill, vehicleId: transit.id, date: addDays(firstDay, -1), odometer: 10_000 });
    // A part fill between two full ones: its fuel counts, it starts and ends nothing.
    await saveFuelFill(handle, { ...fill, vehicleId: transit.id, date: firstDay, quantity: 10_000, cost: 1_500, odometer: 10_100, full: false });
    await saveFuelFill(handle, { ...fill, vehicleId: transit.id, date: addDays(firstDay, 1), quantity: 35_461, cost: 5_000, odometer: 10_400 });
    renderWithSync(<FuelView />, { handle, path: PATH, at: `${PATH}?view=fuel` });

    const transitFuel = await screen.findByRole('region', { name: 'Fuel for Transit' });
    expect(transitFuel).toHaveTextContent(`Fills in ${year}2`);
    expect(transitFuel).toHaveTextContent(`Cost in ${year}£65.00`);
    // 400 miles on 45,461 ml (10.000 UK gallons, to the millilitre) = 40.0 mpg; £65.00 / 400 = 16.3p.
    expect(transitFuel).toHaveTextContent('Economy over 1 stretch, 400 miles40.0 mpg · 16.3p a mile');
    expect(screen.getByText(ECONOMY_RULE)).toBeInTheDocument();
  });

  it('deletes a fill and brings it back with Undo', async () => {
    const handle = createTestSyncHandle();
    const transit = await saveRecord(handle.db, 'vehicle', van);
    await saveFuelFill(handle, { ...fill, vehicleId: transit.id, date: today });
    const app = renderWithSync(<FuelView />, { handle, path: PATH, at: `${PATH}?view=fuel` });
    const name = `Fill on ${fillDayWords(today)}`;

    await app.user.click(await screen.findByRole('button', { name: `Delete fill on ${fillDayWords(today)}` }));
    await waitFor(() => expect(screen.queryByRole('article', { name })).not.toBeInTheDocument());
    await app.user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('article', { name })).toBeInTheDocument();
  });

  it('also logs a fill as a Fuel expense when asked, once, however often it is saved', async () => {
    const handle = createTestSyncHandle();
    const transit = await saveRecord(handle.db, 'vehicle', van);
    const app = renderWithSync(<FuelView />, { handle, path: PATH, at: `${PATH}?view=fuel&add=1` });
    const form = await screen.findByRole('form', { name: 'Log a fill' });
    await app.user.type(within(form).getByLabelText('Litres'), '40');
    await app.user.type(within(form).getByLabelText('Cost (£)'), '60.00');
    await app.user.click(within(form).getByRole('checkbox', { name: 'Also log as a Fuel expense' }));
    await app.user.click(within(form).getByRole('button', { name: 'Log fill' }));
    await screen.findByRole('article', { name: `Fill on ${fillDayWords(today)}` });

    const [fill] = await handle.db.fuelFills.toArray();
    const expenses = await handle.db.expenses.toArray();
    expect(expenses).toMatchObject([{ id: await fillExpenseId(fill!.id), date: today, amount: 6_000, category: 'fuel', vehicleId: transit.id, repeat: 'once', note: 'Fuel fill' }]);
    // An edit says it is logged and offers nothing more; the expense stays one.
    await app.user.click(screen.getByRole('button', { name: `Edit fill on ${fillDayWords(today)}` }));
    const edit = await screen.findByRole('form', { name: 'Edit fill' });
    expect(await within(edit).findByText(/Logged as a Fuel expense/)).toBeInTheDocument();
    expect(within(edit).queryByRole('checkbox', { name: 'Also log as a Fuel expense' })).not.toBeInTheDocument();
    await app.user.click(within(edit).getByRole('button', { name: 'Save fill' }));
    await waitFor(() => expect(screen.queryByRole('form')).not.toBeInTheDocument());
    expect(await handle.db.expenses.count()).toBe(1);
    expect((await handle.db.outbox.toArray()).map((item) => item.name)).toEqual(['vehicle.put', 'fuelFill.put', 'expense.put', 'fuelFill.put']);
  });

  it('never makes the expense twice, and never brings back one the driver deleted', async () => {
    const handle = createTestSyncHandle();
    const transit = await saveRecord(handle.db, 'vehicle', van);
    const content = { ...fill, vehicleId: transit.id, date: today };
    const saved = await saveFuelFillAsExpense(handle, content);
    await saveFuelFillAsExpense(handle, { ...content, cost: 6_100 }, saved.id);
    const expenseId = await fillExpenseId(saved.id);
    expect((await handle.db.expenses.toArray()).map((e) => [e.id, e.amount])).toEqual([[expenseId, 6_000]]);
    await deleteRecord(handle.db, 'expense', expenseId);
    await saveFuelFillAsExpense(handle, content, saved.id);
    expect((await handle.db.expenses.get(expenseId))?.deleted).toBe(1);
    // A free charge is no expense.
    const free = await saveFuelFillAsExpense(handle, { ...content, unit: 'kWh', cost: 0 });
    expect(await handle.db.expenses.get(await fillExpenseId(free.id))).toBeUndefined();
    const names = (await handle.db.outbox.toArray()).map((item) => item.name);
    expect(names.filter((name) => name === 'expense.put')).toHaveLength(1);
  });

  it('asks for a vehicle first when there is none', async () => {
    renderWithSync(<FuelView />, { path: PATH, at: `${PATH}?view=fuel&add=1` });
    expect(await screen.findByText(/Add your vehicle under Mileage first/)).toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });
});
