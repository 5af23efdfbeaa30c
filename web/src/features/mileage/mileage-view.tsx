import { Gauge, Plus } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/button';
import { SelectField } from '@/components/text-field';
import { UndoToast } from '@/components/undo-toast';
import { formatPence, formatShortDate } from '@/lib/format';
import { usePaySetup, type PaySetup } from '@/lib/sync-react/use-pay-setup';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { mileageClaim } from '@/core/tax/mileage-claim';
import { currentTaxYear, taxYearBounds, type TaxYearLabel } from '@/core/tax/tax-year';
import { useNow } from '@/lib/use-now';
import { localDay } from '@/lib/week';
import type { LocalMileage, LocalVehicle } from '@/sync/types';
import { deleteMileage, restoreMileage } from './commands';
import { yearsOfLog } from './log-groups';
import { MileageForm } from './mileage-form';
import { MileageLog } from './mileage-log';
import { logDayWords } from './mileage-words';
import { useMileageLog, type MileageLog as Log } from './use-mileage';
import { VehicleYear } from './vehicle-year';
import { VehiclesCard } from './vehicles-card';
import panel from '@/components/panel.module.css';
import styles from './mileage.module.css';
import recordList from '@/components/record-list.module.css';

/**
 * The HMRC mileage log: vehicles, the log of one tax year (the current one unless another is
 * picked) and each vehicle's miles and claim. `?add=1` opens the form (the dashboard's "Log
 * mileage"). Everything reads the device's store, so it works the same with no signal.
 */
export function MileageView() {
  const log = useMileageLog();
  const pay = usePaySetup();
  return log && pay ? <LoadedMileageView log={log} couriers={pay.couriers} /> : null;
}

function LoadedMileageView({ log, couriers }: { log: Log; couriers: PaySetup['couriers'] }) {
  const handle = useSyncHandle();
  const [params, setParams] = useSearchParams();
  const today = localDay(useNow());
  const [picked, setPicked] = useState<TaxYearLabel | null>(null);
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [deleted, setDeleted] = useState<LocalMileage | null>(null);
  const dismiss = useCallback(() => setDeleted(null), [setDeleted]);
  const asked = params.get('add') === '1';
  const year = picked ?? currentTaxYear(today);

  const liveVehicles = useMemo(() => log.vehicles.filter((vehicle) => vehicle.deleted === 0), [log]);
  const claim = useMemo(() => mileageClaim(log.records, log.vehicles, year), [log, year]);
  const courierNames = useMemo(() => new Map(couriers.map((courier) => [courier.id, courier.name])), [couriers]);

  const adding = editing === 'new' || (asked && liveVehicles.length > 0);
  const closeForm = () => {
    setEditing(null);
    // The dashboard's "Log mileage" asked once: a reload after saving must not reopen the form.
    if (asked) setParams((current) => (current.delete('add'), current), { replace: true });
  };
  const formProps = {
    couriers,
    lastVehicleId: lastUsedVehicle(log.records, liveVehicles),
    today,
    onSaved: closeForm,
    onCancel: closeForm,
  };

  async function remove(record: LocalMileage) {
    await deleteMileage(handle, record.id);
    setDeleted(record);
  }

  const vehiclesCard = (
    <VehiclesCard
      vehicles={liveVehicles}
      log={log.records}
      today={today}
      adding={asked && liveVehicles.length === 0}
      onCancelAdd={() => asked && closeForm()}
    />
  );
  const { from, to } = taxYearBounds(year);

  return (
    <div className={recordList.view}>
      <section className={panel.panel} aria-labelledby="mileage-title">
        <div className={recordList.head}>
          <h2 id="mileage-title" className={panel.panelTitle}>
            <Gauge aria-hidden="true" />
            Mileage log
          </h2>
          {adding || liveVehicles.length === 0 ? null : (
            <Button onClick={() => setEditing('new')}>
              <Plus aria-hidden="true" />
              Log mileage
            </Button>
          )}
        </div>
        {adding ? <MileageForm vehicles={liveVehicles} {...formProps} /> : null}
        <div className={styles.yearPicker}>
          <SelectField label="Tax year" value={year} onChange={(e) => setPicked(e.target.value as TaxYearLabel)}>
            {yearsOfLog(log.records, today).map((label) => (
              <option key={label} value={label}>
                {label}
                {label === currentTaxYear(today) ? ' (this year)' : ''}
              </option>
            ))}
          </SelectField>
        </div>
        <p className={recordList.hint}>
          {formatShortDate(from)} to {formatShortDate(to)}
          {claim.claimPence > 0 ? ` · flat-rate claim ${formatPence(claim.claimPence)}` : ''}
        </p>
        <VehicleYear claim={claim} year={year} liveIds={new Set(liveVehicles.map((vehicle) => vehicle.id))} />
        <MileageLog
          records={log.records}
          vehicles={log.vehicles}
          courierNames={courierNames}
          parkedReasons={log.parkedReasons}
          year={year}
          claim={claim}
          editor={(record) =>
            editing === record.id ? <MileageForm key={record.id} vehicles={vehiclesFor(record, log.vehicles, liveVehicles)} editing={record} {...formProps} /> : null
          }
          onEdit={(record) => setEditing(record.id)}
          onDelete={(record) => void remove(record)}
        />
      </section>
      {/* One place in the tree (so its Undo survives the last vehicle going), shown first while there is none. */}
      <div className={liveVehicles.length === 0 ? styles.first : undefined}>{vehiclesCard}</div>
      {deleted ? (
        <UndoToast
          message={`Mileage of ${logDayWords(deleted.date)} deleted`}
          onUndo={() => {
            const before = deleted;
            setDeleted(null);
            void restoreMileage(handle, before);
          }}
          onDismiss={dismiss}
        />
      ) : null}
    </div>
  );
}

/** The vehicle of the last record made, while it is live; else the first vehicle. */
function lastUsedVehicle(records: readonly LocalMileage[], live: readonly LocalVehicle[]): string {
  const liveIds = new Set(live.map((vehicle) => vehicle.id));
  const latest = records.filter((record) => liveIds.has(record.vehicleId)).reduce<LocalMileage | null>((last, record) => (!last || record.createdAt > last.createdAt ? record : last), null);
  return latest?.vehicleId ?? live[0]?.id ?? '';
}

/** An edited record may name a deleted vehicle: it stays choosable for that record. */
function vehiclesFor(record: LocalMileage, all: readonly LocalVehicle[], live: readonly LocalVehicle[]): LocalVehicle[] {
  const own = all.find((vehicle) => vehicle.id === record.vehicleId);
  return own && own.deleted ? [...live, own] : [...live];
}
