import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { usePaySetup } from '@/lib/sync-react/use-pay-setup';
import { renderWithSync } from '@/testing/render-with-sync';
import { DeductionsView } from './deductions-view';

function makeVehicle(id: string, name: string) {
  return { id, name, type: 'carVan' as const, method: 'flatRate' as const, commuteMiles: 0, createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z', deleted: 0 as const, server: null };
}

function LiveDeductions() {
  const setup = usePaySetup();
  return setup ? <DeductionsView courierId="evri" courierName="Evri" deductions={setup.deductions.filter((d) => d.courierId === 'evri')} today="2025-03-03" /> : null;
}

describe('DeductionsView', () => {
  it('adds a weekly deduction, lists it, deletes it and brings it back with Undo', async () => {
    const app = renderWithSync(<LiveDeductions />, { path: '/app/settings' });
    expect(await screen.findByText('Nothing comes off this courier’s statements.')).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Add deduction' }));
    await app.user.click(screen.getByRole('button', { name: 'Add deduction' }));
    expect(await screen.findByText('Please enter its name on the statement, e.g. Van hire')).toBeInTheDocument();
    expect(await screen.findByText('Please choose what the deduction is for')).toBeInTheDocument();
    await app.user.selectOptions(screen.getByLabelText('What it is for'), 'vehicleHire');
    // No vehicle yet: nothing to ask about.
    expect(screen.queryByLabelText(/^Vehicle/)).not.toBeInTheDocument();
    await app.user.type(screen.getByLabelText(/Name on the statement/), 'Van hire');
    await app.user.type(screen.getByLabelText(/Amount/), '185');
    await app.user.click(screen.getByRole('button', { name: 'Add deduction' }));

    const list = await screen.findByRole('list');
    const item = await within(list).findByRole('listitem');
    expect(item).toHaveTextContent('Van hire −£185.00');
    expect(item).toHaveTextContent('Weekly from 03/03/2025');
    expect(item).toHaveTextContent('Vehicle hire or lease · no vehicle');
    const [put] = await app.handle.db.outbox.toArray();
    expect(put).toMatchObject({ name: 'deduction.put', args: { courierId: 'evri', label: 'Van hire', amount: 18_500, repeat: 'weekly', from: '2025-03-03', to: null, purpose: 'vehicleHire', vehicleId: null } });

    await app.user.click(screen.getByRole('button', { name: 'Delete Van hire' }));
    expect(await screen.findByText('Van hire deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Weekly from 03/03/2025')).not.toBeInTheDocument());
    await app.user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Weekly from 03/03/2025')).toBeInTheDocument();
    // Undone before it was sent: the delete is withdrawn, the deduction is as it was.
    expect((await app.handle.db.outbox.toArray()).map((i) => i.name)).toEqual(['deduction.put']);
  });

  it('edits a deduction into a one-off', async () => {
    const app = renderWithSync(<LiveDeductions />, { path: '/app/settings' });
    await app.user.click(await screen.findByRole('button', { name: 'Add deduction' }));
    await app.user.selectOptions(screen.getByLabelText('What it is for'), 'other');
    await app.user.type(screen.getByLabelText(/Name on the statement/), 'Damage');
    await app.user.type(screen.getByLabelText(/Amount/), '12.50');
    await app.user.click(screen.getByRole('button', { name: 'Add deduction' }));
    await app.user.click(await screen.findByRole('button', { name: 'Edit Damage' }));
    await app.user.selectOptions(screen.getByLabelText('Repeats'), 'once');
    expect(screen.queryByLabelText(/Last charge/)).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Save deduction' }));
    expect(await screen.findByText('Once on 03/03/2025')).toBeInTheDocument();
  });

  it('asks which vehicle van hire is for once the driver has a van, and links it', async () => {
    const app = renderWithSync(<LiveDeductions />, { path: '/app/settings' });
    await app.handle.db.vehicles.put({ ...makeVehicle('van', 'Transit'), syncState: 'synced' });
    await app.user.click(await screen.findByRole('button', { name: 'Add deduction' }));
    await app.user.selectOptions(screen.getByLabelText('What it is for'), 'vehicleHire');
    await app.user.type(screen.getByLabelText(/Name on the statement/), 'Van hire');
    await app.user.type(screen.getByLabelText(/Amount/), '195');
    await app.user.click(screen.getByRole('button', { name: 'Add deduction' }));
    expect(await screen.findByText('Please choose the vehicle this is for, or No vehicle')).toBeInTheDocument();
    await app.user.selectOptions(screen.getByLabelText('Vehicle'), 'Transit');
    await app.user.click(screen.getByRole('button', { name: 'Add deduction' }));
    expect(await screen.findByText('Vehicle hire or lease · Transit')).toBeInTheDocument();
    const [put] = await app.handle.db.outbox.toArray();
    expect(put).toMatchObject({ args: { purpose: 'vehicleHire', vehicleId: 'van' } });
  });
});
