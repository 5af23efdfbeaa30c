// The JSON export's one touch of the device: every record of every kind, read generically over
// the synced tables, so a new kind reaches the file with no plumbing here.
import { addDefaultsBeforeFirstPull } from '@/lib/sync-react/use-pay-setup';
import type { LocalDb } from '@/sync/db';
import { recordKinds, tableOf, type RecordContents, type RecordKind } from '@/sync/records';
import type { LocalRecord } from '@/sync/types';
import type { ExportRecords } from './json-export';

/**
 * Every record on the device by kind (tombstones too: the export leaves them out), with the
 * default courier and its first card as the server made them when the first pull has not
 * brought them yet, as pricing reads them (readPaySetup), so a day logged in those first
 * seconds is exported with the courier and card it names.
 */
export async function readExportRecords(db: LocalDb): Promise<ExportRecords> {
  const lists = await Promise.all(recordKinds.map((kind) => tableOf(db, kind).toArray()));
  const records = Object.fromEntries(recordKinds.map((kind, i) => [kind, lists[i]])) as { [K in RecordKind]: LocalRecord<RecordContents[K]>[] };
  await addDefaultsBeforeFirstPull(db, records.courier, records.rateCard);
  return records;
}
