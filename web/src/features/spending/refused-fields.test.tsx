import 'fake-indexeddb/auto';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ParkedChanges } from '@/features/parked-changes/parked-changes';
import { useParkedChanges } from '@/features/parked-changes/use-parked-changes';
import { saveVehicle } from '@/features/mileage/commands';
import { VehicleForm } from '@/features/mileage/vehicle-form';
import { recordResults } from '@/sync/outbox';
import { createTestSyncHandle } from '@/testing/sync-handle';
import { renderWithSync } from '@/testing/render-with-sync';

const NAME_PROBLEM = 'Name must not contain line breaks, control characters or text-direction marks';
const OTHER_PROBLEM = 'Vehicle id must be a UUID';

function Parked() {
  const changes = useParkedChanges();
  return changes ? <ParkedChanges changes={changes} /> : null;
}

// A push refusal names its problems by field (issue 32): the device keeps them with the parked
// change, lists them in the panel, and the form that edits the record shows each beside its field.
describe('a refused change named by field', () => {
  it('shows each problem beside its field in the form and on its own line in the parked panel', async () => {
    const handle = createTestSyncHandle();
    const van = await saveVehicle(handle, { name: 'Transit', type: 'carVan', method: 'flatRate', commuteMiles: 0 });
    const [item] = await handle.db.outbox.toArray();
    await recordResults(handle.db, [item!], [
      { id: item!.mutationId, status: 'rejected', code: 'validation', message: `${NAME_PROBLEM}; ${OTHER_PROBLEM}`, fields: { name: [NAME_PROBLEM], id: [OTHER_PROBLEM] } },
    ]);
    const editing = await handle.db.vehicles.get(van.id);

    const app = renderWithSync(
      <>
        <Parked />
        <VehicleForm editing={editing} kept={null} onSaved={() => {}} onCancel={() => {}} />
      </>,
      { handle },
    );
    const name = await screen.findByLabelText(/Name/);
    await waitFor(() => expect(name).toHaveAccessibleDescription(NAME_PROBLEM));
    expect(name).toBeInvalid();
    // A problem with no field of its own on the form is said above the buttons.
    expect(screen.getByRole('alert')).toHaveTextContent(OTHER_PROBLEM);
    // The panel reads the outbox through a live query of its own: it may show after the form.
    const panel = await screen.findByRole('region', { name: /Changes not synced/ });
    await waitFor(() =>
      expect([...panel.querySelectorAll('li[data-field]')].map((li) => [li.getAttribute('data-field'), li.textContent])).toEqual([
        ['name', NAME_PROBLEM],
        ['id', OTHER_PROBLEM],
      ]),
    );

    // The driver fixes the name: its problem goes, the other stays until saved.
    await app.user.type(name, ' 2');
    expect(name).not.toHaveAccessibleDescription(NAME_PROBLEM);
  });
});
