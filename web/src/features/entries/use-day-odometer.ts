// The day form's odometer part (issue 26): which vehicle, the readings prefilled from that
// vehicle's last finish (or from the day's own mileage record when it has one), the day's
// commute from the vehicle's. What the driver types wins over every prefill until the date
// changes or the day is saved.
import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { dayCommuteOf } from '@/core/mileage/day-miles';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useVehicles } from '@/lib/sync-react/use-vehicles';
import type { LocalVehicle } from '@/sync/types';
import { readDayOdometerLog } from './day-odometer-log';
import type { OdometerInput } from './odometer-schema';

export interface DayOdometerForm {
  /** The live vehicles; none means the part is not shown. */
  vehicles: LocalVehicle[];
  values: OdometerInput;
  /** The values to validate: a start only prefilled (no finish typed) is no reading at all. */
  typedValues: OdometerInput;
  setField: (field: keyof OdometerInput, value: string) => void;
  reset: () => void;
}

export function useDayOdometer(date: string): DayOdometerForm {
  const { db } = useSyncHandle();
  const vehicles = useVehicles();
  const log = useLiveQuery(() => readDayOdometerLog(db, date), [db, date]);
  const [typed, setTyped] = useState<{ date: string; fields: Partial<OdometerInput> }>({ date, fields: {} });
  const own = typed.date === date ? typed.fields : {};
  const list = vehicles ?? [];
  // The vehicle a day most likely used: the one of the latest mileage record, else the first.
  const vehicleId = own.vehicleId ?? log?.likelyVehicleId ?? list[0]?.id ?? '';
  const vehicle = list.find((v) => v.id === vehicleId);
  const existing = (log?.onDate ?? []).filter((record) => record.vehicleId === vehicleId && record.odometerStart !== null).sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0];
  const prefill: OdometerInput = existing
    ? { vehicleId, start: String(existing.odometerStart), end: String(existing.odometerEnd ?? ''), commute: String(existing.commuteMiles) }
    : { vehicleId, start: String(log?.lastFinish.get(vehicleId) ?? ''), end: '', commute: String(dayCommuteOf(vehicle?.commuteMiles ?? 0)) };
  const fields = own;
  const values: OdometerInput = { ...prefill, ...fields, vehicleId };
  const onlyPrefilled = fields.start === undefined && values.end.trim() === '' && !existing;
  return {
    vehicles: list,
    values,
    typedValues: onlyPrefilled ? { ...values, start: '' } : values,
    setField: (field, value) =>
      setTyped((before) => {
        const kept = before.date === date ? before.fields : {};
        // Another vehicle: its own prefilled readings and commute, not the last one's typing.
        return { date, fields: field === 'vehicleId' ? { vehicleId: value } : { ...kept, [field]: value } };
      }),
    reset: () => setTyped({ date, fields: {} }),
  };
}
