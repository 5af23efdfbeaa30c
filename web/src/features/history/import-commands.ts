// The import's two touches of the device: reading what is there (for the plan's duplicates and
// references) and writing the plan. The write is ONE saveRecords transaction, every record with
// its outbox item, so an import is pushed like any other change: offline first, exactly once.
import { saveRecords, type RecordWrite } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import type { LocalDb } from '@/sync/db';
import { recordKinds, tableOf } from '@/sync/records';
import type { CsvContext } from './import-csv-entries';
import type { DeviceRecords } from '@/core/import/import-plan';

/** Every record of every kind on the device, tombstones included. */
export async function readDeviceRecords(db: LocalDb): Promise<DeviceRecords> {
  const lists = await Promise.all(recordKinds.map((kind) => tableOf(db, kind).toArray()));
  return Object.fromEntries(recordKinds.map((kind, i) => [kind, lists[i]])) as unknown as DeviceRecords;
}

export async function importRecords(handle: SyncHandle, writes: readonly RecordWrite[]): Promise<void> {
  if (writes.length === 0) return;
  await saveRecords(handle.db, writes);
}

/** What a CSV row is checked against: the live couriers by name and id, the live cards, and the default courier. */
export async function readCsvContext(db: LocalDb): Promise<CsvContext> {
  const [couriers, cards] = await Promise.all([db.couriers.where('deleted').equals(0).toArray(), db.rateCards.where('deleted').equals(0).toArray()]);
  return {
    couriers: couriers.map(({ id, name }) => ({ id, name })),
    cards: new Map(cards.map((card) => [card.id, card.courierId])),
    defaultCourierId: db.userId,
  };
}
