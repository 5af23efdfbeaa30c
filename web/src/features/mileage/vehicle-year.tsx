import { formatPence } from '@/lib/format';
import type { MileageClaim, VehicleMileage } from '@/core/tax/mileage-claim';
import type { TaxYearLabel } from '@/core/tax/tax-year';
import { breakProgressWords, businessUseWords, flatRateOf, methodWords } from './mileage-words';
import styles from './mileage.module.css';
import recordList from '@/components/record-list.module.css';

interface VehicleYearProps {
  claim: MileageClaim;
  year: TaxYearLabel;
  /** Vehicles shown even with no miles this year (the live ones). */
  liveIds: ReadonlySet<string>;
}

/** Per vehicle for one tax year: business, commuting and total miles, then the claim or the business-use share. */
export function VehicleYear({ claim, year, liveIds }: VehicleYearProps) {
  const shown = claim.vehicles.filter((vehicle) => vehicle.totalMiles > 0 || vehicle.businessMiles > 0 || liveIds.has(vehicle.vehicleId));
  if (shown.length === 0) return null;
  return (
    <ul className={styles.figures} aria-label={`Vehicles in ${year}`}>
      {shown.map((vehicle) => (
        <li key={vehicle.vehicleId}>
          <VehicleFigures vehicle={vehicle} year={year} deleted={!liveIds.has(vehicle.vehicleId)} />
        </li>
      ))}
    </ul>
  );
}

function VehicleFigures({ vehicle, year, deleted }: { vehicle: VehicleMileage; year: TaxYearLabel; deleted: boolean }) {
  const rate = flatRateOf(vehicle, year);
  const progress = rate ? breakProgressWords(vehicle.businessMiles, rate) : null;
  return (
    <section className={styles.vehicleYear} aria-label={`${vehicle.name} in ${year}`}>
      <p className={recordList.itemTitle}>
        {vehicle.name}
        {deleted ? ' (deleted)' : ''}
      </p>
      <dl className={styles.miles}>
        <div>
          <dt>Business</dt>
          <dd>{vehicle.businessMiles.toLocaleString('en-GB')}</dd>
        </div>
        <div>
          <dt>Commuting</dt>
          <dd>{vehicle.commuteMiles.toLocaleString('en-GB')}</dd>
        </div>
        <div>
          <dt>All miles</dt>
          <dd>{vehicle.totalMiles.toLocaleString('en-GB')}</dd>
        </div>
      </dl>
      {rate ? (
        <>
          <p>
            <span className={styles.claim}>{formatPence(vehicle.claimPence)}</span> <span className={recordList.hint}>mileage claim</span>
          </p>
          {progress ? (
            <>
              <progress className={styles.progress} max={rate.thresholdMiles} value={Math.min(vehicle.businessMiles, rate.thresholdMiles)} aria-label={progress} />
              <p className={recordList.hint}>{progress}</p>
            </>
          ) : null}
        </>
      ) : (
        <p>
          <span className={styles.claim}>{businessUseWords(vehicle.businessMiles, vehicle.totalMiles)}</span>
        </p>
      )}
      <p className={recordList.hint}>{methodWords(vehicle, year)}</p>
    </section>
  );
}
