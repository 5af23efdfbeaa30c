// The bundle's summary.html is written by the device (here) when it holds every photo and by the
// server otherwise (crates/server/src/evidence_bundle/contents.rs), in the same words. Each side's
// own tests would not see the two drift apart, so both build the summary of one query from the
// same inputs and compare it with one golden file: this test writes the inputs (fixture.json) and
// pins the summary; the server's `summary_is_the_devices_word_for_word` builds it from
// fixture.json and must match byte for byte.
//
// After a deliberate change of the wording here: GOLDEN_EVIDENCE_SUMMARY=write npx vitest run
// src/core/evidence-bundle/summary-golden.test.ts, change the server to match, and commit both.
import { describe, expect, it } from 'vitest';
import type { Difference } from '@/core/statement-lines/match-statement';
import { makeQuery } from '@/core/statement-queries/query';
import { evidenceFor, type EvidenceRecord } from '@/core/evidence/evidence';
import fixtureFile from '../../../../crates/server/tests/golden/evidence-bundle/fixture.json?raw';
import summaryFile from '../../../../crates/server/tests/golden/evidence-bundle/summary.html?raw';
import { readZip } from '@/testing/read-zip';
import { buildBundle, type BundleInput } from './bundle';

const GOLDEN = new URL('../../../../crates/server/tests/golden/evidence-bundle/', import.meta.url);
/** Held in a variable: the app's types do not know Node's modules, and only this writer needs one. */
const NODE_FS = 'node:fs';
const PHOTO_ID = '0190a6e2-7c1d-7000-8000-000000000e01';
const QUERY_ID = '0190a6e2-7c1d-7000-8000-000000000f01';

/** Synced evidence: the server's own first-stored time, as the server-built bundle always has. */
function stored(id: string, content: Partial<EvidenceRecord>): EvidenceRecord {
  return {
    id,
    entryId: null,
    statementLineId: null,
    statementQueryId: null,
    type: 'note',
    recordedAt: '2026-11-02T14:05:00.123Z',
    text: '',
    photoId: null,
    purpose: null,
    minutes: null,
    place: '',
    fromWhom: '',
    createdAt: '2026-11-02T14:05:01.456Z',
    deleted: 0,
    server: {},
    ...content,
  } as EvidenceRecord;
}

// Every kind of item and of difference the letter words: a photo with a caption of two lines,
// waiting time of over an hour, an instruction and text a driver typed with markup in it; a
// difference with a card rate, one without, and one about the whole statement.
const evidence = [
  stored('0190a6e2-7c1d-7000-8000-000000000d01', { statementLineId: 'line-1', type: 'photo', photoId: PHOTO_ID, purpose: 'proofOfDelivery', text: 'Left with neighbour at no. 12\nRang the bell twice', recordedAt: '2026-11-02T14:05:00.123Z' }),
  stored('0190a6e2-7c1d-7000-8000-000000000d02', { entryId: 'day-1', type: 'waiting', minutes: 65, place: 'Depot <gate 3>', recordedAt: '2026-11-02T06:40:00.000Z', createdAt: '2026-11-02T07:00:00Z' }),
  stored('0190a6e2-7c1d-7000-8000-000000000d03', { entryId: 'day-2', type: 'instruction', fromWhom: 'Dispatcher "Kim"', text: 'Take the Bristol round & the extra drops', recordedAt: '2026-11-01T07:10:00.500Z', createdAt: '2026-11-01T07:10:02.000Z' }),
];
const differences: Difference[] = [
  { kind: 'fewerStops', date: '2026-11-02', words: '3 stops logged but not paid', logged: '121 stops', paid: '118 stops', cardRate: 150, amount: 450, entryIds: ['day-1'], lineIds: ['line-1'] },
  { kind: 'dayNotOnStatement', date: '2026-11-01', words: 'Day not on the statement', logged: '90 stops, £178.20', paid: '', cardRate: null, amount: 17_820, entryIds: ['day-2'], lineIds: [] },
  { kind: 'unexplained', date: null, words: 'Deduction not on the rate card', logged: '', paid: '−£12.00', cardRate: null, amount: 1_200, entryIds: [], lineIds: [] },
];
const query = makeQuery('check-1', differences, '2026-11-09', evidence)!;
const days = [
  { id: 'day-1', date: '2026-11-02' },
  { id: 'day-2', date: '2026-11-01' },
];
const input: BundleInput = {
  scope: { query: { id: QUERY_ID, content: query, context: { courierName: 'Parcel Co & Sons', periodStart: '2026-10-27', periodEnd: '2026-11-02', reference: 'ST-1', from: 'Sam Driver' } } },
  evidence: evidenceFor({ queryId: QUERY_ID }, { evidence, entries: days, lines: [{ id: 'line-1', date: '2026-11-02' }], queries: [{ id: QUERY_ID, madeOn: query.madeOn, items: query.items }] }),
  photos: new Map([[PHOTO_ID, { bytes: Uint8Array.of(0xff, 0xd8, 0xff, 0xd9), type: 'image/jpeg' }]]),
  driver: 'Sam Driver',
  builtAt: new Date('2026-11-10T09:00:00.123Z'),
};

/** The inputs as the server's test reads them: wire shapes (serde camelCase), no device fields. */
function fixture(): string {
  if (!('query' in input.scope)) throw new Error('a query bundle');
  const { id, content, context } = input.scope.query;
  return `${JSON.stringify(
    {
      about: 'Written by web/src/core/evidence-bundle/summary-golden.test.ts: the inputs of summary.html beside it, for the server to build the same page.',
      builtAt: input.builtAt.toISOString(),
      driver: input.driver,
      context,
      query: { id, madeOn: content.madeOn, total: content.total, items: content.items },
      evidence: input.evidence.map(({ evidence: { id: evidenceId, createdAt, entryId, statementLineId, statementQueryId, type, recordedAt, text, photoId, purpose, minutes, place, fromWhom }, day, on }) => ({
        id: evidenceId,
        createdAt,
        day,
        on,
        content: { entryId, statementLineId, statementQueryId, type, recordedAt, text, photoId, purpose, minutes, place, fromWhom },
      })),
    },
    null,
    2,
  )}\n`;
}

function summary(): string {
  const entries = readZip(buildBundle(input).bytes);
  return new TextDecoder().decode(entries.find((e) => e.name === 'summary.html')!.bytes);
}

describe("the evidence bundle's summary, device and server alike", () => {
  // Vitest puts the environment in import.meta.env; the app's types do not know Node's fs.
  if (import.meta.env.GOLDEN_EVIDENCE_SUMMARY === 'write') {
    it('writes the golden inputs and summary', async () => {
      const fs = (await import(/* @vite-ignore */ NODE_FS)) as { writeFileSync: (path: URL, text: string) => void };
      fs.writeFileSync(new URL('fixture.json', GOLDEN), fixture());
      fs.writeFileSync(new URL('summary.html', GOLDEN), summary());
    });
    return;
  }

  it('builds the golden summary from the golden inputs', () => {
    expect(fixture()).toBe(fixtureFile);
    expect(summary()).toBe(summaryFile);
  });

  it('holds every kind of item and difference the page words', () => {
    for (const said of ['Waiting time: 1 hour 5 minutes at Depot &lt;gate 3&gt;', 'Instruction from Dispatcher &quot;Kim&quot;', 'Rang the bell twice', 'Whole statement', 'Card’s rate: £1.50', 'These 3 differences are', 'The query recorded 3 evidence items in its chain.']) {
      expect(summaryFile).toContain(said);
    }
  });
});
