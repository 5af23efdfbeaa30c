import { Fuel, Pencil, Plus, Trash2 } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, ButtonLink } from '@/components/button';
import { SyncStateLabel } from '@/components/sync-state-label';
import { UndoToast } from '@/components/undo-toast';
import { formatPence } from '@/lib/format';
import { spendingView } from '@/lib/paths';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useNow } from '@/lib/use-now';
import { localDay } from '@/lib/week';
import { ECONOMY_RULE, economyOf, fillsInRange } from '@/core/fuel/economy';
import { currentTaxYear, taxYearBounds } from '@/core/tax/tax-year';
import type { LocalFuelFill, LocalVehicle } from '@/sync/types';
import { deleteFuelFill, restoreFuelFill } from './commands';
import { FuelFillForm } from './fuel-fill-form';
import type { FuelUnit } from './fuel-fill-form-schema';
import { COUNT_ONCE_WORDS, economyWords, fillDayWords, measuredOverWords, pencePerMileWords, quantityWords } from './fuel-words';
import { useFuelLog, type FuelLog } from './use-fuel-fills';
import panel from '@/components/panel.module.css';
import styles from './fuel.module.css';
import recordList from '@/components/record-list.module.css';

/**
 * The fuel log, per vehicle: each vehicle's fills this tax year, their cost and, from full fills
 * with odometer readings, its economy and cost a mile. `?add=1` opens the form. Everything
 * reads the device's store, so it works the same with no signal.
 */
export function FuelView() {
  const log = useFuelLog();
  return log ? <LoadedFuelView log={log} /> : null;
}

function LoadedFuelView({ log }: { log: FuelLog }) {
  const handle = useSyncHandle();
  const [params, setParams] = useSearchParams();
  const today = localDay(useNow());
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [deleted, setDeleted] = useState<LocalFuelFill | null>(null);
  const dismiss = useCallback(() => setDeleted(null), []);
  const asked = params.get('add') === '1';
  const live = useMemo(() => log.vehicles.filter((vehicle) => vehicle.deleted === 0), [log]);
  const adding = editing === 'new' || (asked && live.length > 0);
  const closeForm = () => {
    setEditing(null);
    if (asked) setParams((current) => (current.delete('add'), current), { replace: true });
  };

  async function remove(fill: LocalFuelFill) {
    await deleteFuelFill(handle, fill.id);
    setDeleted(fill);
  }

  const shown = vehiclesShown(log, live);
  const formProps = { start: startOf(log.fills, live), today, onSaved: closeForm, onCancel: closeForm };
  return (
    <div className={recordList.view}>
      <section className={panel.panel} aria-labelledby="fuel-title">
        <div className={recordList.head}>
          <h2 id="fuel-title" className={panel.panelTitle}>
            <Fuel aria-hidden="true" />
            Fuel log
          </h2>
          {adding || live.length === 0 ? null : (
            <Button onClick={() => setEditing('new')}>
              <Plus aria-hidden="true" />
              Log a fill
            </Button>
          )}
        </div>
        <p className={recordList.hint}>{COUNT_ONCE_WORDS}</p>
        {live.length === 0 ? (
          <p className={recordList.hint}>
            Add your vehicle under Mileage first, then log its fills here.{' '}
            <ButtonLink variant="ghost" to={spendingView('mileage')}>
              Go to Mileage
            </ButtonLink>
          </p>
        ) : null}
        {adding ? <FuelFillForm vehicles={live} {...formProps} /> : null}
        {shown.map((vehicle) => (
          <VehicleFills
            key={vehicle.id}
            vehicle={vehicle}
            fills={log.fills.filter((fill) => fill.vehicleId === vehicle.id)}
            today={today}
            parkedReasons={log.parkedReasons}
            editor={(fill) =>
              editing === fill.id ? <FuelFillForm key={fill.id} vehicles={vehiclesFor(fill, log.vehicles, live)} editing={fill} {...formProps} /> : null
            }
            onEdit={(fill) => setEditing(fill.id)}
            onDelete={(fill) => void remove(fill)}
          />
        ))}
        {log.fills.length > 0 ? <p className={recordList.hint}>{ECONOMY_RULE}</p> : null}
      </section>
      {deleted ? (
        <UndoToast
          message={`Fill of ${fillDayWords(deleted.date)} deleted`}
          onUndo={() => {
            const before = deleted;
            setDeleted(null);
            void restoreFuelFill(handle, before);
          }}
          onDismiss={dismiss}
        />
      ) : null}
    </div>
  );
}

interface VehicleFillsProps {
  vehicle: LocalVehicle;
  /** The vehicle's live fills, latest first. */
  fills: readonly LocalFuelFill[];
  today: string;
  parkedReasons: ReadonlyMap<string, string>;
  editor: (fill: LocalFuelFill) => React.ReactNode | null;
  onEdit: (fill: LocalFuelFill) => void;
  onDelete: (fill: LocalFuelFill) => void;
}

/** One vehicle: its tax year's fills and cost, its economy, then every fill. */
function VehicleFills({ vehicle, fills, today, parkedReasons, editor, onEdit, onDelete }: VehicleFillsProps) {
  const year = currentTaxYear(today);
  const { from, to } = taxYearBounds(year);
  const thisYear = fillsInRange(fills, from, to);
  const economies = economyOf(fills);
  const name = `${vehicle.name}${vehicle.deleted ? ' (deleted)' : ''}`;
  return (
    <section className={styles.vehicle} aria-label={`Fuel for ${name}`}>
      <h3 className={recordList.itemTitle}>{name}</h3>
      <dl className={styles.figures}>
        <div>
          <dt>Fills in {year}</dt>
          <dd>{thisYear.count}</dd>
        </div>
        <div>
          <dt>Cost in {year}</dt>
          <dd>{formatPence(thisYear.cost)}</dd>
        </div>
        {economies.length === 0 ? (
          <div className={styles.wide}>
            <dt>Economy</dt>
            <dd>Needs two full fills with odometer readings</dd>
          </div>
        ) : (
          economies.map((economy) => (
            <div key={economy.unit} className={styles.wide}>
              <dt>Economy {measuredOverWords(economy)}</dt>
              <dd>
                {economyWords(economy)} · {pencePerMileWords(economy)}
              </dd>
            </div>
          ))
        )}
      </dl>
      {fills.length === 0 ? (
        <p className={recordList.hint}>No fills logged yet.</p>
      ) : (
        <ul className={recordList.list} aria-label={`Fills for ${name}`}>
          {fills.map((fill) => (
            <li key={fill.id}>{editor(fill) ?? <FillLine fill={fill} parkedReason={parkedReasons.get(fill.id)} onEdit={() => onEdit(fill)} onDelete={() => onDelete(fill)} />}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function FillLine({ fill, parkedReason, onEdit, onDelete }: { fill: LocalFuelFill; parkedReason: string | undefined; onEdit: () => void; onDelete: () => void }) {
  const day = fillDayWords(fill.date);
  return (
    <article className={recordList.item} aria-label={`Fill on ${day}`}>
      <div className={recordList.itemText}>
        <p className={recordList.itemTitle}>
          {day} · {quantityWords(fill.quantity, fill.unit)} · {formatPence(fill.cost)}
        </p>
        <p className={recordList.hint}>
          {fill.full ? 'Full' : 'Part fill'}
          {fill.odometer !== null ? ` · odometer ${fill.odometer.toLocaleString('en-GB')}` : ' · no odometer reading'}
        </p>
        {fill.note ? <p className={recordList.hint}>{fill.note}</p> : null}
        <SyncStateLabel state={fill.syncState} reason={parkedReason} />
      </div>
      <div className={recordList.itemActions}>
        <Button variant="ghost" aria-label={`Edit fill on ${day}`} onClick={onEdit}>
          <Pencil aria-hidden="true" />
        </Button>
        <Button variant="ghost" aria-label={`Delete fill on ${day}`} onClick={onDelete}>
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
    </article>
  );
}

/** The live vehicles, then any deleted one that still has fills (they stay in the log). */
function vehiclesShown(log: FuelLog, live: readonly LocalVehicle[]): LocalVehicle[] {
  const filled = new Set(log.fills.map((fill) => fill.vehicleId));
  return [...live, ...log.vehicles.filter((vehicle) => vehicle.deleted === 1 && filled.has(vehicle.id))];
}

/** A new fill starts on the vehicle of the last fill logged (while it is live), else the first vehicle, in that fill's unit. */
function startOf(fills: readonly LocalFuelFill[], live: readonly LocalVehicle[]): { vehicleId: string; unit: FuelUnit } {
  const liveIds = new Set(live.map((vehicle) => vehicle.id));
  const latest = fills.filter((fill) => liveIds.has(fill.vehicleId)).reduce<LocalFuelFill | null>((last, fill) => (!last || fill.createdAt > last.createdAt ? fill : last), null);
  return latest ? { vehicleId: latest.vehicleId, unit: latest.unit } : { vehicleId: live[0]?.id ?? '', unit: 'litres' };
}

/** An edited fill may name a deleted vehicle: it stays choosable for that fill. */
function vehiclesFor(fill: LocalFuelFill, all: readonly LocalVehicle[], live: readonly LocalVehicle[]): LocalVehicle[] {
  const own = all.find((vehicle) => vehicle.id === fill.vehicleId);
  return own && own.deleted ? [...live, own] : [...live];
}
