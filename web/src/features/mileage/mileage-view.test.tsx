import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentTaxYear, taxYearBounds, taxYearLabel, startYearOf } from '@/core/tax/tax-year';
import { createTestSyncHandle } from '@/testing/sync-handle';
import { renderWithSync } from '@/testing/render-with-sync';
import { addDays, localDay } from '@/lib/week';
import { saveMileage, saveVehicle } from './commands';
import { vehicleMessages } from './vehicle-form-schema';
import { logDayWords } from './mileage-words';
import { MileageView } from './mileage-view';

// The view opens on the real current tax year, so the days are placed inside it.
const year = currentTaxYear(localDay(new Date()));
const firstDay = taxYearBounds(year).from;
const PATH = '/app/spending';

function day(n: number) {
  return addDays(firstDay, n);
}

describe('MileageView', () => {
  it('asked to log with no vehicle, adds the vehicle first, then logs a day from the odometer', async () => {
    const app = renderWithSync(<MileageView />, { path: PATH, at: `${PATH}?view=mileage&add=1` });
    expect(await screen.findByRole('form', { name: 'Add a vehicle' })).toBeInTheDocument();
    await app.user.type(screen.getByLabelText(/Name/), 'Transit');
    await app.user.click(screen.getByRole('button', { name: 'Add vehicle' }));

    const form = await screen.findByRole('form', { name: 'Log mileage' });
    expect(within(form).getByLabelText('Vehicle')).toHaveDisplayValue('Transit');
    await app.user.clear(within(form).getByLabelText('Day'));
    await app.user.type(within(form).getByLabelText('Day'), day(1));
    await app.user.type(within(form).getByLabelText('Odometer at start'), '12000');
    await app.user.type(within(form).getByLabelText('Odometer at end'), '12034');
    await app.user.type(within(form).getByLabelText(/Commuting miles/), '4');
    expect(form).toHaveTextContent('34 miles driven: 30 business, 4 commuting, 0 private.');
    await app.user.click(within(form).getByRole('button', { name: 'Log mileage' }));

    const line = await screen.findByRole('article', { name: `Mileage on ${logDayWords(day(1))}` });
    expect(line).toHaveTextContent('34 miles: 30 business, 4 commuting · odometer 12,000 to 12,034');
    expect(line).toHaveTextContent('30 miles at 45p = £13.50');
    expect(screen.getByRole('region', { name: `Transit in ${year}` })).toHaveTextContent('30 of the first 10,000 miles at 45p: 9,970 miles to go');
    const outbox = await app.handle.db.outbox.toArray();
    expect(outbox.map((item) => item.name)).toEqual(['vehicle.put', 'mileage.put']);
    expect(outbox[1]?.args).toMatchObject({ date: day(1), odometerStart: 12_000, odometerEnd: 12_034, businessMiles: 30, commuteMiles: 4, courierId: null, note: '' });
    // Saved: a reload must not reopen the form.
    expect(app.router.state.location.search).toBe('?view=mileage');
  });

  it('shows the day that crosses the 10,000-mile break and the van’s claim', async () => {
    const handle = createTestSyncHandle();
    const van = await saveVehicle(handle, { name: 'Van', type: 'carVan', method: 'flatRate', commuteMiles: 0 });
    const typed = { vehicleId: van.id, courierId: null, odometerStart: null, odometerEnd: null, commuteMiles: 0, note: '' };
    for (let n = 0; n < 4; n++) await saveMileage(handle, { ...typed, date: day(n), businessMiles: 2000 });
    await saveMileage(handle, { ...typed, date: day(4), businessMiles: 1990 });
    await saveMileage(handle, { ...typed, date: day(5), businessMiles: 30 });
    renderWithSync(<MileageView />, { handle, path: PATH, at: `${PATH}?view=mileage` });

    // 10,000 × 45p + 20 × 25p, worked by hand: £4,500.00 + £5.00.
    const crossing = await screen.findByRole('article', { name: `Mileage on ${logDayWords(day(5))}` });
    expect(crossing).toHaveTextContent('10 miles at 45p + 20 at 25p = £9.50');
    const figures = screen.getByRole('region', { name: `Van in ${year}` });
    expect(figures).toHaveTextContent('£4,505.00');
    expect(figures).toHaveTextContent('Past the first 10,000 miles: 20 miles at 25p so far');
    expect(screen.getByRole('article', { name: `Mileage on ${logDayWords(day(4))}` })).toHaveTextContent('1,990 miles at 45p = £895.50');
  });

  it('keeps the method of a vehicle with miles in an earlier tax year, and lists that year on request', async () => {
    const handle = createTestSyncHandle();
    const van = await saveVehicle(handle, { name: 'Old van', type: 'carVan', method: 'flatRate', commuteMiles: 0 });
    const lastYear = taxYearLabel(startYearOf(year) - 1);
    await saveMileage(handle, { vehicleId: van.id, date: addDays(firstDay, -1), courierId: null, odometerStart: null, odometerEnd: null, businessMiles: 12, commuteMiles: 0, note: '' });
    const app = renderWithSync(<MileageView />, { handle, path: PATH, at: `${PATH}?view=mileage` });

    expect(await screen.findByText(`No miles logged in ${year} yet.`)).toBeInTheDocument();
    await app.user.selectOptions(screen.getByLabelText('Tax year'), lastYear);
    expect(await screen.findByRole('article', { name: `Mileage on ${logDayWords(addDays(firstDay, -1))}` })).toHaveTextContent('12 miles at 45p = £5.40');

    await app.user.click(screen.getByRole('button', { name: 'Edit Old van' }));
    await app.user.selectOptions(screen.getByLabelText('How its costs are claimed'), 'actualCosts');
    await app.user.click(screen.getByRole('button', { name: 'Save vehicle' }));
    expect(await screen.findByText(vehicleMessages.methodKept)).toBeInTheDocument();
    expect((await handle.db.vehicles.get(van.id))?.method).toBe('flatRate');
  });

  it('says a bicycle is actual costs and shows its business-use share', async () => {
    const handle = createTestSyncHandle();
    const bike = await saveVehicle(handle, { name: 'Cargo bike', type: 'bicycle', method: 'actualCosts', commuteMiles: 0 });
    const typed = { vehicleId: bike.id, courierId: null, odometerStart: null, odometerEnd: null, note: '' };
    await saveMileage(handle, { ...typed, date: day(0), businessMiles: 31, commuteMiles: 19 });
    const app = renderWithSync(<MileageView />, { handle, path: PATH, at: `${PATH}?view=mileage` });

    expect(await screen.findByRole('region', { name: `Cargo bike in ${year}` })).toHaveTextContent('62% business use from the log');
    await app.user.click(screen.getByRole('button', { name: 'Add vehicle' }));
    await app.user.selectOptions(screen.getByLabelText('Type'), 'bicycle');
    expect(screen.getByLabelText('How its costs are claimed')).toBeDisabled();
    expect(screen.getByText(vehicleMessages.bicycle)).toBeInTheDocument();
  });

  it('deletes a day and brings it back with Undo; a deleted vehicle’s miles stay', async () => {
    const handle = createTestSyncHandle();
    const van = await saveVehicle(handle, { name: 'Van', type: 'carVan', method: 'flatRate', commuteMiles: 0 });
    await saveMileage(handle, { vehicleId: van.id, date: day(2), courierId: null, odometerStart: null, odometerEnd: null, businessMiles: 40, commuteMiles: 0, note: '' });
    const app = renderWithSync(<MileageView />, { handle, path: PATH, at: `${PATH}?view=mileage` });
    const name = `Mileage on ${logDayWords(day(2))}`;

    await app.user.click(await screen.findByRole('button', { name: `Delete mileage on ${logDayWords(day(2))}` }));
    await waitFor(() => expect(screen.queryByRole('article', { name })).not.toBeInTheDocument());
    await app.user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('article', { name })).toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Delete Van' }));
    expect(await screen.findByText('Van deleted. Its 1 logged day stays in the log and still counts.')).toBeInTheDocument();
    expect(await screen.findByRole('article', { name })).toHaveTextContent('Van (deleted)');
    expect(screen.getByRole('region', { name: `Van in ${year}` })).toHaveTextContent('£18.00');
  });
  it('says why the server refused a day, on the day', async () => {
    const handle = createTestSyncHandle();
    const van = await saveVehicle(handle, { name: 'Van', type: 'carVan', method: 'flatRate', commuteMiles: 0 });
    const record = await saveMileage(handle, { vehicleId: van.id, date: day(3), courierId: null, odometerStart: null, odometerEnd: null, businessMiles: 12, commuteMiles: 0, note: '' });
    await handle.db.outbox.where('recordId').equals(record.id).modify({ parked: 1, attempts: 5, lastError: 'The vehicle is not yours' });
    await handle.db.mileage.update(record.id, { syncState: 'parked' });
    renderWithSync(<MileageView />, { handle, path: PATH, at: `${PATH}?view=mileage` });
    expect(await screen.findByRole('article', { name: `Mileage on ${logDayWords(day(3))}` })).toHaveTextContent('Not synced: The vehicle is not yours');
  });
});
