import type { ChangeEvent } from 'react';
import { NO_VEHICLE } from '@/core/tax/vehicle-choice';
import { SelectField } from './text-field';

interface VehicleFieldProps {
  /** The driver's live vehicles. */
  vehicles: readonly { id: string; name: string }[];
  /** The form's value: a vehicle id, NO_VEHICLE, or '' (not chosen). */
  value: string;
  /** The cost must say its vehicle (core/tax/vehicle-choice.ts asksForVehicle). */
  asked: boolean;
  error?: string | undefined;
  onChange: (value: string) => void;
}

/**
 * Which vehicle a cost is for. When asked, nothing is picked for the driver: "Choose…" until
 * they name a vehicle or "No vehicle"; otherwise it is optional and starts at "No vehicle".
 */
export function VehicleField({ vehicles, value, asked, error, onChange }: VehicleFieldProps) {
  const unknown = value !== '' && value !== NO_VEHICLE && !vehicles.some((vehicle) => vehicle.id === value);
  return (
    <SelectField label="Vehicle" optional={!asked} required={asked} value={!asked && value === NO_VEHICLE ? '' : value} error={error} onChange={(e: ChangeEvent<HTMLSelectElement>) => onChange(e.target.value)}>
      {asked ? <option value="">Choose…</option> : <option value="">No vehicle</option>}
      {vehicles.map((vehicle) => (
        <option key={vehicle.id} value={vehicle.id}>
          {vehicle.name}
        </option>
      ))}
      {unknown ? <option value={value}>Deleted vehicle</option> : null}
      {asked ? <option value={NO_VEHICLE}>No vehicle (not one of these)</option> : null}
    </SelectField>
  );
}

interface RecordVehicleFieldProps {
  /** The vehicles to choose from: live ones, plus an edited record's deleted vehicle. */
  vehicles: readonly { id: string; name: string; deleted: number }[];
  /** The form's value: a vehicle id, or '' until one is chosen. */
  value: string;
  error?: string | undefined;
  onChange: (value: string) => void;
}

/**
 * The vehicle a mileage log or a fuel fill belongs to: always one. "Choose a vehicle" shows only
 * until one is picked; an edited record's deleted vehicle stays listed, marked "(deleted)".
 */
export function RecordVehicleField({ vehicles, value, error, onChange }: RecordVehicleFieldProps) {
  return (
    <SelectField label="Vehicle" value={value} error={error} onChange={(e: ChangeEvent<HTMLSelectElement>) => onChange(e.target.value)}>
      {value === '' ? <option value="">Choose a vehicle</option> : null}
      {vehicles.map((vehicle) => (
        <option key={vehicle.id} value={vehicle.id}>
          {vehicle.name}
          {vehicle.deleted ? ' (deleted)' : ''}
        </option>
      ))}
    </SelectField>
  );
}
