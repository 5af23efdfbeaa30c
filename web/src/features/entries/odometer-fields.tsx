import { SelectField, TextField } from '@/components/text-field';
import { dayMiles } from '@/core/mileage/day-miles';
import type { DayOdometerForm } from './use-day-odometer';
import type { OdometerErrors } from './odometer-schema';
import styles from './entry-fields.module.css';

/**
 * The van's odometer on the day (issue 26): start (prefilled with the vehicle's last finish),
 * finish, and today's commute, with the business miles they come to. Saving the day writes
 * that day's mileage record for the vehicle; the mileage tab stays for corrections.
 */
export function OdometerFields({ odometer, errors }: { odometer: DayOdometerForm; errors: OdometerErrors }) {
  const { vehicles, values, setField } = odometer;
  if (vehicles.length === 0) return null;
  const vehicle = vehicles.find((v) => v.id === values.vehicleId);
  const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : null);
  const [start, end, commute] = [whole(values.start), whole(values.end), values.commute.trim() === '' ? 0 : whole(values.commute)];
  const miles = start !== null && end !== null && commute !== null ? dayMiles(start, end, commute) : null;
  return (
    <fieldset className={`${styles.wide} ${styles.odometer}`}>
      <legend className={styles.odometerLegend}>Odometer{vehicles.length === 1 && vehicle ? ` · ${vehicle.name}` : ''}</legend>
      <div className={styles.pair}>
        {vehicles.length > 1 ? (
          <div className={styles.wide}>
            <SelectField label="Vehicle" value={values.vehicleId} onChange={(event) => setField('vehicleId', event.target.value)}>
              {vehicles.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.name}
                </option>
              ))}
            </SelectField>
          </div>
        ) : null}
        <TextField label="Odometer start" optional type="number" inputMode="numeric" min={0} step={1} value={values.start} error={errors.start} onChange={(event) => setField('start', event.target.value)} />
        <TextField label="Odometer finish" optional type="number" inputMode="numeric" min={0} step={1} value={values.end} error={errors.end} onChange={(event) => setField('end', event.target.value)} />
        <TextField label="Commute today (miles)" type="number" inputMode="numeric" min={0} step={1} value={values.commute} error={errors.commute} onChange={(event) => setField('commute', event.target.value)} />
        <p className={styles.businessMiles} aria-live="polite">
          {miles ? (
            <>
              <strong>{miles.businessMiles} business miles</strong> ({miles.businessMiles + miles.commuteMiles} driven, {miles.commuteMiles} commute)
            </>
          ) : (
            'Home to depot and back is not business travel: it is taken off.'
          )}
        </p>
      </div>
    </fieldset>
  );
}
