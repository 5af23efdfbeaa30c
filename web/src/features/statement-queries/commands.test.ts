import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import type { Difference } from '@/core/statement-lines/match-statement';
import type { LocalStatementCheck } from '@/sync/types';
import { createTestSyncHandle, makeStatementCheckContent, type TestSyncHandle } from '@/testing/sync-handle';
import { makeStatementQuery } from './commands';

let handle: TestSyncHandle;

afterEach(async () => {
  handle.db.close();
  await Dexie.delete(handle.db.name);
});

const shortfall: Difference = {
  kind: 'unexplained',
  date: null,
  words: 'Unexplained: the statement paid £19.68 less than your log says for the period',
  logged: '£287.00',
  paid: '£267.32',
  cardRate: null,
  amount: 1_968,
  entryIds: [],
  lineIds: [],
};

/** A check as a pull leaves it: synced, its server copy kept. */
async function storedCheck(status: LocalStatementCheck['status'] = 'unchecked'): Promise<LocalStatementCheck> {
  handle = createTestSyncHandle();
  const content = makeStatementCheckContent({ paid: 26_732, status });
  const check: LocalStatementCheck = { ...content, id: 'check-1', createdAt: '2025-03-24T08:00:00Z', updatedAt: '2025-03-24T08:00:00Z', deleted: 0, syncState: 'synced', server: { ...content, version: 1 } };
  await handle.db.invoices.put(check);
  return check;
}

const outbox = () => handle.db.outbox.orderBy('seq').toArray();

describe('"Query this"', () => {
  it('stores the query and marks the check disputed in one write, the check’s outbox item first, and nudges sync once', async () => {
    const check = await storedCheck();
    const query = await makeStatementQuery(handle, check.id, [shortfall], '2025-03-25');
    expect(query).toMatchObject({ statementCheckId: check.id, madeOn: '2025-03-25', total: 1_968, syncState: 'pending' });
    expect(await handle.db.statementQueries.get(query!.id)).toMatchObject({ total: 1_968 });
    const after = await handle.db.invoices.get(check.id);
    // Only the status changes; the rest of the check is as the driver saved it.
    expect(after).toMatchObject({ status: 'disputed', paid: 26_732, syncState: 'pending', createdAt: check.createdAt, server: { status: 'unchecked', version: 1 } });
    const items = await outbox();
    expect(items.map((i) => [i.name, i.recordId])).toEqual([
      ['invoice.put', check.id],
      ['statementQuery.put', query!.id],
    ]);
    expect(items[0]!.args).toMatchObject({ id: check.id, status: 'disputed', paid: 26_732 });
    expect(handle.requestSync).toHaveBeenCalledTimes(1);
  });

  it('writes only the query when the check is already disputed', async () => {
    const check = await storedCheck('disputed');
    const query = await makeStatementQuery(handle, check.id, [shortfall], '2025-03-25');
    expect((await outbox()).map((i) => i.name)).toEqual(['statementQuery.put']);
    expect((await handle.db.invoices.get(check.id))?.syncState).toBe('synced');
    expect(query).not.toBeNull();
  });

  it('leaves neither when the write fails part way: no query, the check as it was, no outbox item', async () => {
    const check = await storedCheck();
    // The query's outbox item fails after the check's was written, as a crash or a full disk would.
    handle.db.outbox.hook('creating', (_key, item) => {
      if (item.name === 'statementQuery.put') throw new Error('disk full');
    });
    await expect(makeStatementQuery(handle, check.id, [shortfall], '2025-03-25')).rejects.toThrow('disk full');
    expect(await handle.db.statementQueries.count()).toBe(0);
    expect(await handle.db.invoices.get(check.id)).toEqual(check);
    expect(await handle.db.outbox.count()).toBe(0);
    expect(handle.requestSync).not.toHaveBeenCalled();
  });

  it('writes nothing when there is nothing to ask, or the check is gone', async () => {
    const check = await storedCheck();
    expect(await makeStatementQuery(handle, check.id, [{ ...shortfall, amount: 0 }], '2025-03-25')).toBeNull();
    await handle.db.invoices.update(check.id, { deleted: 1 });
    expect(await makeStatementQuery(handle, check.id, [shortfall], '2025-03-25')).toBeNull();
    expect(await makeStatementQuery(handle, 'no-such-check', [shortfall], '2025-03-25')).toBeNull();
    expect(await handle.db.statementQueries.count()).toBe(0);
    expect(await handle.db.outbox.count()).toBe(0);
    expect((await handle.db.invoices.get(check.id))?.status).toBe('unchecked');
  });
});
