import type { DeviceRecords } from '@/core/import/import-plan';
import { KIND_NAMES } from '@/sync/contract.generated';

/** A device with no record of any kind (every kind of the contract, so a new kind needs no line here). */
export function emptyDevice(): DeviceRecords {
  return Object.fromEntries(KIND_NAMES.map((kind) => [kind, []])) as unknown as DeviceRecords;
}
