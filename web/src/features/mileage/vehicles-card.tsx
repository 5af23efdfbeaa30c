import { Car, Pencil, Plus, Trash2 } from 'lucide-react';
import { useCallback, useState } from 'react';
import { Button } from '@/components/button';
import { UndoToast } from '@/components/undo-toast';
import { countWords } from '@/lib/format';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { currentTaxYear } from '@/core/tax/tax-year';
import type { LocalMileage, LocalVehicle } from '@/sync/types';
import { deleteVehicle, restoreVehicle } from './commands';
import { methodWords, vehicleTypeWords } from './mileage-words';
import { keptMethod } from './vehicle-form-schema';
import { useVehicleFixes } from './use-vehicle-fixes';
import { VehicleForm } from './vehicle-form';
import panel from '@/components/panel.module.css';
import recordList from '@/components/record-list.module.css';

interface VehiclesCardProps {
  /** The live vehicles. */
  vehicles: readonly LocalVehicle[];
  /** The live log (a vehicle with miles in an earlier tax year keeps its method). */
  log: readonly LocalMileage[];
  today: string;
  /** Open the add form at once (the driver asked to log miles and has no vehicle yet). */
  adding?: boolean;
  onAdded?: (vehicle: LocalVehicle) => void;
  onCancelAdd?: () => void;
}

/** The driver's vehicles and how each one's costs are claimed: list, add, edit, delete with Undo. */
export function VehiclesCard({ vehicles, log, today, adding = false, onAdded, onCancelAdd }: VehiclesCardProps) {
  const handle = useSyncHandle();
  const [editing, setEditing] = useState<string | 'new' | null>(adding ? 'new' : null);
  const [deleted, setDeleted] = useState<LocalVehicle | null>(null);
  const dismiss = useCallback(() => setDeleted(null), []);
  const year = currentTaxYear(today);
  const open = editing === 'new' || adding;
  const fixes = useVehicleFixes(vehicles, log);

  async function remove(vehicle: LocalVehicle) {
    await deleteVehicle(handle, vehicle.id);
    setDeleted(vehicle);
  }

  const closeNew = () => {
    setEditing(null);
    onCancelAdd?.();
  };

  return (
    <section className={panel.panel} aria-labelledby="vehicles-title">
      <div className={recordList.head}>
        <h2 id="vehicles-title" className={panel.panelTitle}>
          <Car aria-hidden="true" />
          Vehicles
        </h2>
        {open ? null : (
          <Button variant="secondary" onClick={() => setEditing('new')}>
            <Plus aria-hidden="true" />
            Add vehicle
          </Button>
        )}
      </div>
      {open ? (
        <VehicleForm
          kept={null}
          onSaved={(vehicle) => {
            setEditing(null);
            onAdded?.(vehicle);
          }}
          onCancel={closeNew}
        />
      ) : null}
      {vehicles.length === 0 && !open ? <p className={recordList.hint}>Add the vehicle you drive for work, then log its miles.</p> : null}
      <ul className={recordList.list}>
        {vehicles.map((vehicle) =>
          editing === vehicle.id ? (
            <li key={vehicle.id}>
              <VehicleForm
                editing={vehicle}
                kept={keptMethod(vehicle, log, today)}
                fixedBy={fixes?.get(vehicle.id)}
                onSaved={() => setEditing(null)}
                onCancel={() => setEditing(null)}
              />
            </li>
          ) : (
            <li key={vehicle.id} className={recordList.item}>
              <div className={recordList.itemText}>
                <p className={recordList.itemTitle}>
                  {vehicle.name}{' '}
                  <span className={recordList.hint}>· {vehicleTypeWords[vehicle.type]}</span>
                </p>
                <p className={recordList.hint}>{methodWords(vehicle, year)}</p>
                {fixes?.has(vehicle.id) ? <p className={recordList.hint}>Method fixed by the Q{fixes.get(vehicle.id)!.quarter} {fixes.get(vehicle.id)!.year.replace('-', '–')} update you sent</p> : null}
                {vehicle.commuteMiles > 0 ? <p className={recordList.hint}>Commute: {countWords(vehicle.commuteMiles, 'mile')} each way, taken off a day’s odometer miles</p> : null}
              </div>
              <div className={recordList.itemActions}>
                <Button variant="ghost" aria-label={`Edit ${vehicle.name}`} onClick={() => setEditing(vehicle.id)}>
                  <Pencil aria-hidden="true" />
                </Button>
                <Button variant="ghost" aria-label={`Delete ${vehicle.name}`} onClick={() => void remove(vehicle)}>
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            </li>
          ),
        )}
      </ul>
      {deleted ? (
        <UndoToast
          message={deletedWords(deleted, log)}
          onUndo={() => {
            const before = deleted;
            setDeleted(null);
            void restoreVehicle(handle, before);
          }}
          onDismiss={dismiss}
        />
      ) : null}
    </section>
  );
}

/** What deleting a vehicle does to the log: nothing is lost, its miles still count. */
function deletedWords(vehicle: LocalVehicle, log: readonly LocalMileage[]): string {
  const days = log.filter((record) => record.vehicleId === vehicle.id).length;
  if (days === 0) return `${vehicle.name} deleted`;
  return `${vehicle.name} deleted. Its ${days === 1 ? '1 logged day stays in the log and still counts' : `${days} logged days stay in the log and still count`}.`;
}
