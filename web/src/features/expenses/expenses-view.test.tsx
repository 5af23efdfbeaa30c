import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveRecord } from '@/sync/commands';
import { newId } from '@/sync/ids';
import { saveExpenseWithReceipts } from '@/sync/receipts';
import type { ExpenseContent } from '@/sync/types';
import { renderWithSync } from '@/testing/render-with-sync';
import { createTestSyncHandle } from '@/testing/sync-handle';
import { ExpensesView } from './expenses-view';

// jsdom has no object URLs: every picture gets one made-up address, revoked like a real one.
const revoked: string[] = [];
beforeAll(() => {
  let made = 0;
  URL.createObjectURL = () => `blob:test/${++made}`;
  URL.revokeObjectURL = (url: string) => void revoked.push(url);
});
afterAll(() => {
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

const fuel = (patch: Partial<ExpenseContent> = {}): ExpenseContent => ({
  date: '2025-05-02',
  amount: 4_550,
  category: 'fuel',
  note: 'Diesel',
  courierId: null,
  vehicleId: null,
  repeat: 'once',
  repeatUntil: null,
  receipts: [],
  ...patch,
});

describe('ExpensesView', () => {
  it('opens the form from add=1, says what is missing, and saves an expense with its photo kept on the device', async () => {
    const app = renderWithSync(<ExpensesView />, { path: '/app/spending', at: '/app/spending?view=expenses&add=1' });
    expect(await screen.findByRole('heading', { name: 'Add an expense' })).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Add expense' }));
    expect(await screen.findByText('Please enter the amount')).toBeInTheDocument();
    expect(screen.getByText('Please choose what the money was spent on')).toBeInTheDocument();

    await app.user.type(screen.getByLabelText(/Amount/), '45.50');
    await app.user.selectOptions(screen.getByLabelText('Category'), 'fuel');
    await app.user.type(screen.getByLabelText(/Note/), 'Diesel');
    const photo = new File([new Uint8Array(1234)], 'receipt.jpg', { type: 'image/jpeg' });
    await app.user.upload(screen.getByTestId('receipt-file'), photo);
    // Shown at once, before anything is saved or sent.
    expect(await screen.findByRole('img', { name: 'Receipt photo 1 of 1' })).toHaveAttribute('src', expect.stringMatching(/^blob:/));
    expect(await app.handle.db.receiptPhotos.count()).toBe(0);

    await app.user.click(screen.getByRole('button', { name: 'Add expense' }));
    expect(await screen.findByText('Waiting to upload')).toBeInTheDocument();
    const [put] = await app.handle.db.outbox.toArray();
    expect(put).toMatchObject({ name: 'expense.put', args: { amount: 4_550, category: 'fuel', note: 'Diesel', repeat: 'once', courierId: null, vehicleId: null } });
    const receipts = (put?.args as { receipts: string[] }).receipts;
    expect(receipts).toHaveLength(1);
    expect(await app.handle.db.receiptPhotos.get(receipts[0]!)).toMatchObject({ holderId: put?.recordId, bytes: 1234, uploadedAt: null, error: null });
    expect(app.handle.requestSync).toHaveBeenCalled();
    // Asked once: the form does not open again on a reload.
    expect(app.router.state.location.search).toBe('?view=expenses');
  });

  it('lists expenses by month with totals, tags and repeats, and a refused photo with Try again and Remove photo', async () => {
    const handle = createTestSyncHandle();
    const { db } = handle;
    const van = await saveRecord(db, 'vehicle', { name: 'Transit', type: 'carVan', method: 'actualCosts', commuteMiles: 0 });
    const photo = newId();
    const expense = await saveExpenseWithReceipts(db, fuel({ vehicleId: van.id, receipts: [photo] }), undefined, [{ id: photo, blob: new Blob(['x']) }], []);
    await db.receiptPhotos.update(photo, { error: 'This file is not a JPEG, PNG or WebP picture.' });
    await saveRecord(db, 'expense', fuel({ date: '2025-04-10', amount: 2_500, category: 'phone', note: 'Contract', repeat: 'monthly', repeatUntil: '2025-05-10' }));
    const app = renderWithSync(<ExpensesView />, { handle, path: '/app/spending' });

    const may = await screen.findByRole('region', { name: 'May 2025' });
    expect(within(may).getByText('£70.50')).toBeInTheDocument();
    const april = screen.getByRole('region', { name: 'April 2025' });
    // The month's total and its one payment.
    expect(within(april).getAllByText('£25.00')).toHaveLength(2);
    expect(within(april).getByText('Every month from 10/04/2025 until 10/05/2025')).toBeInTheDocument();
    expect(within(may).getByText('Transit')).toBeInTheDocument();
    expect(within(may).getByText('02/05/2025 · Diesel')).toBeInTheDocument();

    expect(await within(may).findByText('This file is not a JPEG, PNG or WebP picture.')).toBeInTheDocument();
    expect(await screen.findByText('1 receipt photo could not be uploaded.')).toBeInTheDocument();
    await app.user.click(within(may).getByRole('button', { name: 'Try again' }));
    expect(await within(may).findByText('Waiting to upload')).toBeInTheDocument();
    expect((await db.receiptPhotos.get(photo))?.error).toBeNull();
    expect(handle.requestSync).toHaveBeenCalled();

    await db.receiptPhotos.update(photo, { error: 'Too big' });
    await app.user.click(await within(may).findByRole('button', { name: 'Remove photo' }));
    await waitFor(async () => expect((await db.expenses.get(expense.id))?.receipts).toEqual([]));
    expect(await db.receiptPhotos.get(photo)).toBeUndefined();
    await waitFor(() => expect(within(may).queryByText('Too big')).not.toBeInTheDocument());
  });

  it('deletes an expense and brings it back with Undo, photos and all', async () => {
    const handle = createTestSyncHandle();
    const photo = newId();
    await saveExpenseWithReceipts(handle.db, fuel({ receipts: [photo] }), undefined, [{ id: photo, blob: new Blob(['x']) }], []);
    const app = renderWithSync(<ExpensesView />, { handle, path: '/app/spending' });
    await app.user.click(await screen.findByRole('button', { name: 'Delete Fuel of 02/05/2025' }));
    expect(await screen.findByText('Fuel of 02/05/2025 deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'May 2025' })).not.toBeInTheDocument());
    expect(await handle.db.receiptPhotos.count()).toBe(1);
    await app.user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('img', { name: 'Receipt photo 1 of 1' })).toBeInTheDocument();
  });

  it('says a fuel bill names no vehicle once the driver has one, and links it from the edit form', async () => {
    const handle = createTestSyncHandle();
    const fuelId = newId();
    await saveRecord(handle.db, 'expense', fuel(), fuelId);
    const van = newId();
    await saveRecord(handle.db, 'vehicle', { name: 'Hired van', type: 'carVan', method: 'flatRate', commuteMiles: 0 }, van);
    const app = renderWithSync(<ExpensesView />, { handle, path: '/app/spending' });
    const item = (await screen.findByText('No vehicle: edit to link it')).closest('li')!;
    await app.user.click(within(item).getByRole('button', { name: /^Edit Fuel/ }));
    // Saved before the van: the form asks again rather than keep "no vehicle" for it.
    await app.user.click(screen.getByRole('button', { name: 'Save expense' }));
    expect(await screen.findByText('Please choose the vehicle this is for, or No vehicle')).toBeInTheDocument();
    await app.user.selectOptions(screen.getByLabelText('Vehicle'), 'Hired van');
    await app.user.click(screen.getByRole('button', { name: 'Save expense' }));
    await waitFor(() => expect(screen.queryByText('No vehicle: edit to link it')).not.toBeInTheDocument());
    expect(await handle.db.expenses.get(fuelId)).toMatchObject({ vehicleId: van, note: 'Diesel' });
  });
});
