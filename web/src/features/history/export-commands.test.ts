// The JSON export reads the device generically: every synced table, so a kind reaches the file
// with no plumbing of its own.
import 'fake-indexeddb/auto';
import { LocalDb } from '@/sync/db';
import { recordKinds, tableOf, type RecordKind } from '@/sync/records';
import { goldenPullChanges } from '@/testing/golden-pull';
import { TEST_USER_ID } from '@/testing/sync-handle';
import { describe, expect, it } from 'vitest';
import { readExportRecords } from './export-commands';
import { buildJsonExport, EXPORT_LISTS, type JsonExportInput } from './json-export';

const profile: JsonExportInput['profile'] = { displayName: 'Sam', email: null, bio: '', tiers: [{ rate: 150 }] };

function exportOf(db: LocalDb, records: JsonExportInput['records']) {
  return buildJsonExport({ accountId: db.userId, profile, settings: { theme: 'dark', taxRegion: 'uk' }, records, from: '2000-01-01', to: '2099-12-31', exportedAt: '2026-01-01T00:00:00Z' });
}

describe("the JSON export's records", () => {
  it('are every live record of every kind on the device, each in its list', async () => {
    // Every kind's records as the server's golden pull has them (the default courier's id is USER).
    const changes = goldenPullChanges() as { kind: RecordKind; id: string; deleted: boolean; data?: Record<string, unknown> }[];
    const db = new LocalDb(`export-${crypto.randomUUID()}`, 'USER');
    const live = new Map<RecordKind, string[]>();
    for (const change of changes.filter((c) => recordKinds.includes(c.kind))) {
      const stored = change.deleted ? { id: change.id, deleted: 1 } : { id: change.id, ...change.data, deleted: 0 };
      await tableOf(db, change.kind).put({ ...stored, syncState: 'synced', server: null } as never);
      if (!change.deleted) live.set(change.kind, [...(live.get(change.kind) ?? []), change.id]);
    }
    expect(live.size).toBeGreaterThan(8);
    const file = exportOf(db, await readExportRecords(db)) as unknown as Record<string, { id: string }[]>;
    for (const [kind, ids] of live) expect(file[EXPORT_LISTS[kind].list]?.map((record) => record.id).sort(), kind).toEqual([...ids].sort());
  });

  it('carry the default courier and its first card before the first pull brings them, as pricing does', async () => {
    const db = new LocalDb(`export-${crypto.randomUUID()}`, TEST_USER_ID);
    const file = exportOf(db, await readExportRecords(db));
    expect(file.couriers.map((courier) => courier.id)).toEqual([TEST_USER_ID]);
    expect(file.rateCards.map((card) => [card.id, card.courierId])).toEqual([[TEST_USER_ID, TEST_USER_ID]]);
  });
});
