// Evidence on the device, live: every item (the JSON export, the evidence bundle) or the items
// kept on one day, statement line or query; and `useEvidenceFor`, the one reading of a query's
// or a range's evidence (core/evidence `evidenceFor`), for screens and the evidence bundle.
import { useLiveQuery } from 'dexie-react-hooks';
import { evidenceFor, type EvidenceScope, type EvidenceWithDay } from '@/core/evidence/evidence';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { LocalEvidence } from '@/sync/types';
import type { EvidenceHolder } from './evidence-form';

export function useAllEvidence(): readonly LocalEvidence[] | undefined {
  const { db } = useSyncHandle();
  return useLiveQuery(() => db.evidence.where('deleted').equals(0).toArray(), [db]);
}

function byRecorded(a: LocalEvidence, b: LocalEvidence): number {
  return a.recordedAt < b.recordedAt ? -1 : a.recordedAt > b.recordedAt ? 1 : a.id < b.id ? -1 : 1;
}

/** The live items kept on one day, statement line or query, oldest recorded first. */
export function useEvidenceOn(holder: EvidenceHolder): readonly LocalEvidence[] | undefined {
  const { db } = useSyncHandle();
  const [field, id] = Object.entries(holder)[0] as ['entryId' | 'statementLineId' | 'statementQueryId', string];
  return useLiveQuery(async () => (await db.evidence.where(field).equals(id).toArray()).filter((e) => e.deleted === 0).sort(byRecorded), [db, field, id]);
}

/** The evidence of a query (what it recorded and what was kept on it since) or of a range of days. */
export function useEvidenceFor(scope: EvidenceScope): EvidenceWithDay[] | undefined {
  const { db } = useSyncHandle();
  const key = 'queryId' in scope ? scope.queryId : `${scope.from}..${scope.to}`;
  return useLiveQuery(
    async () => {
      const [evidence, entries, lines, queries] = await Promise.all([
        db.evidence.where('deleted').equals(0).toArray(),
        db.entries.where('deleted').equals(0).toArray(),
        db.statementLines.where('deleted').equals(0).toArray(),
        db.statementQueries.where('deleted').equals(0).toArray(),
      ]);
      return evidenceFor(scope, { evidence, entries, lines, queries });
    },
    [db, key],
  );
}
