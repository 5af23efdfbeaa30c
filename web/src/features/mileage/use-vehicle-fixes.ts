// Which vehicles a sent quarterly update fixed the method of, live from the device's store: the
// sent updates arrive from other devices with the pull, and a cost or trip saved inside a sent
// period fixes its vehicle at once (the rule is core/mtd/vehicle-fixed.ts).
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { vehicleFixes, type VehicleFix } from '@/core/mtd/vehicle-fixed';
import type { LocalMileage, LocalVehicle } from '@/sync/types';

/** Undefined on the first read. */
export function useVehicleFixes(vehicles: readonly LocalVehicle[], log: readonly LocalMileage[]): ReadonlyMap<string, VehicleFix> | undefined {
  const { db } = useSyncHandle();
  const stored = useLiveQuery(
    async () => {
      const [expenses, deductions, sent] = await Promise.all([
        db.expenses.where('deleted').equals(0).toArray(),
        db.deductions.where('deleted').equals(0).toArray(),
        db.sentUpdates.where('deleted').equals(0).toArray(),
      ]);
      return { expenses, deductions, sent };
    },
    [db],
  );
  return useMemo(
    () => (stored ? vehicleFixes(vehicles.map((vehicle) => vehicle.id), { mileage: log, expenses: stored.expenses, deductions: stored.deductions }, stored.sent) : undefined),
    [stored, vehicles, log],
  );
}
