import { Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/button';
import { SyncStateLabel } from '@/components/sync-state-label';
import { formatMonthYear, formatPence } from '@/lib/format';
import { milesOf, type MileageClaim, type MileageClaimLine } from '@/core/tax/mileage-claim';
import type { TaxYearLabel } from '@/core/tax/tax-year';
import type { LocalMileage, LocalVehicle } from '@/sync/types';
import { monthsOfYear } from './log-groups';
import { claimLineWords, flatRateOf, logDayWords, milesWords } from './mileage-words';
import styles from './mileage.module.css';
import recordList from '@/components/record-list.module.css';

interface MileageLogProps {
  /** Every live record, latest day first. */
  records: readonly LocalMileage[];
  /** Every vehicle, deleted ones included. */
  vehicles: readonly LocalVehicle[];
  courierNames: ReadonlyMap<string, string>;
  parkedReasons: ReadonlyMap<string, string>;
  year: TaxYearLabel;
  claim: MileageClaim;
  /** The record being edited gets this in place of its line. */
  editor: (record: LocalMileage) => ReactNode | null;
  onEdit: (record: LocalMileage) => void;
  onDelete: (record: LocalMileage) => void;
}

/** One tax year's log by month, each day with its miles and, on the flat rate, its claim. */
export function MileageLog({ records, vehicles, courierNames, parkedReasons, year, claim, editor, onEdit, onDelete }: MileageLogProps) {
  const months = monthsOfYear(records, year);
  const lines = new Map(claim.vehicles.flatMap((vehicle) => vehicle.lines.map((line) => [line.recordId, line] as const)));
  const vehicleOf = new Map(vehicles.map((vehicle) => [vehicle.id, vehicle]));
  if (months.length === 0) return <p className={recordList.hint}>No miles logged in {year} yet.</p>;
  return (
    <ol className={styles.months} aria-label={`Mileage log ${year}`}>
      {months.map(({ month, records: days }) => {
        const business = days.reduce((sum, record) => sum + record.businessMiles, 0);
        const claimed = days.reduce((sum, record) => sum + (lines.get(record.id)?.claimPence ?? 0), 0);
        return (
          <li key={month} className={styles.month}>
            <h3 className={styles.monthTitle}>
              {formatMonthYear(month)}
              <span className={styles.monthTotal}>
                {milesWords(business)} business{claimed > 0 ? ` · ${formatPence(claimed)}` : ''}
              </span>
            </h3>
            <ul className={recordList.list}>
              {days.map((record) => (
                <li key={record.id}>
                  {editor(record) ?? (
                    <LogLine
                      record={record}
                      vehicle={vehicleOf.get(record.vehicleId)}
                      courier={record.courierId ? courierNames.get(record.courierId) : undefined}
                      line={lines.get(record.id)}
                      parkedReason={parkedReasons.get(record.id)}
                      year={year}
                      onEdit={() => onEdit(record)}
                      onDelete={() => onDelete(record)}
                    />
                  )}
                </li>
              ))}
            </ul>
          </li>
        );
      })}
    </ol>
  );
}

interface LogLineProps {
  record: LocalMileage;
  vehicle: LocalVehicle | undefined;
  courier: string | undefined;
  line: MileageClaimLine | undefined;
  parkedReason: string | undefined;
  year: TaxYearLabel;
  onEdit: () => void;
  onDelete: () => void;
}

function LogLine({ record, vehicle, courier, line, parkedReason, year, onEdit, onDelete }: LogLineProps) {
  const total = milesOf(record);
  const privateMiles = total - record.businessMiles - record.commuteMiles;
  const rate = vehicle ? flatRateOf(vehicle, year) : null;
  const crossing = line !== undefined && line.milesAtFirstRate > 0 && line.milesAtAfterRate > 0;
  const vehicleName = vehicle ? `${vehicle.name}${vehicle.deleted ? ' (deleted)' : ''}` : 'A vehicle not on this device';
  const day = logDayWords(record.date);
  return (
    <article className={recordList.item} aria-label={`Mileage on ${day}`} data-crossing={crossing || undefined}>
      <div className={recordList.itemText}>
        <p className={recordList.itemTitle}>
          {day} · {vehicleName}
          {courier ? <span className={recordList.hint}> · {courier}</span> : null}
        </p>
        <p className={recordList.hint}>
          {milesWords(total)}: {record.businessMiles.toLocaleString('en-GB')} business, {record.commuteMiles.toLocaleString('en-GB')} commuting
          {privateMiles > 0 ? `, ${privateMiles.toLocaleString('en-GB')} private` : ''}
          {record.odometerStart !== null && record.odometerEnd !== null
            ? ` · odometer ${record.odometerStart.toLocaleString('en-GB')} to ${record.odometerEnd.toLocaleString('en-GB')}`
            : ''}
        </p>
        {line && rate ? (
          <p className={crossing ? styles.crossing : recordList.hint}>
            {claimLineWords(line, rate)} = <span className={styles.amount}>{formatPence(line.claimPence)}</span>
            {crossing ? ` (the day it passes ${milesWords(rate.thresholdMiles)} this tax year)` : ''}
          </p>
        ) : vehicle?.method === 'actualCosts' ? (
          <p className={recordList.hint}>Actual costs: these miles set the business-use share</p>
        ) : null}
        {record.note ? <p className={recordList.hint}>{record.note}</p> : null}
        <SyncStateLabel state={record.syncState} reason={parkedReason} />
      </div>
      <div className={recordList.itemActions}>
        <Button variant="ghost" aria-label={`Edit mileage on ${day}`} onClick={onEdit}>
          <Pencil aria-hidden="true" />
        </Button>
        <Button variant="ghost" aria-label={`Delete mileage on ${day}`} onClick={onDelete}>
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
    </article>
  );
}
