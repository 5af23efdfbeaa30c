import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainItems, firstBrokenLink } from '@/core/statement-queries/chain';
import { makeQuery } from '@/core/statement-queries/query';
import type { Difference } from '@/core/statement-lines/match-statement';
import { canonicalEvidence, evidenceChanges, evidenceFor, evidenceToRecord, evidenceWords, type EvidenceRecord } from './evidence';

function evidence(overrides: Partial<EvidenceRecord> = {}): EvidenceRecord {
  return {
    id: '0190a6e2-7c1d-7000-8000-000000000d01',
    entryId: null,
    statementLineId: 'line-1',
    statementQueryId: null,
    type: 'photo',
    recordedAt: '2026-03-02T14:05:00.123Z',
    text: '',
    photoId: '0190a6e2-7c1d-7000-8000-000000000e01',
    purpose: 'proofOfDelivery',
    minutes: null,
    place: '',
    fromWhom: '',
    createdAt: '2026-03-02T14:06:00Z',
    deleted: 0,
    ...overrides,
  };
}

function difference(overrides: Partial<Difference> = {}): Difference {
  return { kind: 'fewerStops', date: '2026-03-02', words: '3 stops logged but not paid', logged: '121 stops', paid: '118 stops', cardRate: 150, amount: 450, entryIds: ['day-1'], lineIds: ['line-1'], ...overrides };
}

const waiting = evidence({ id: '0190a6e2-7c1d-7000-8000-000000000d02', type: 'waiting', photoId: null, purpose: null, minutes: 55, place: 'Depot', entryId: 'day-1', statementLineId: null, recordedAt: '2026-03-02T06:40:00.000Z' });

describe('evidence', () => {
  it('says what each item is in one line', () => {
    expect(evidenceWords(evidence())).toBe('Photo (proof of delivery)');
    expect(evidenceWords(waiting)).toBe('Waiting time: 55 minutes at Depot');
    expect(evidenceWords(evidence({ type: 'waiting', minutes: 65, place: '' }))).toBe('Waiting time: 1 hour 5 minutes');
    expect(evidenceWords(evidence({ type: 'instruction', fromWhom: 'Sam', text: 'Take Leeds too\nand Bradford' }))).toBe('Instruction from Sam: Take Leeds too');
    expect(evidenceWords(evidence({ type: 'note', text: 'Depot\tshut' }))).toBe('Note: Depot shut');
  });

  it('a new query records the evidence on the days and lines its differences name, after them, oldest first', () => {
    const elsewhere = evidence({ id: 'x', statementLineId: 'line-9' });
    const query = makeQuery('check-1', [difference()], '2026-03-20', [evidence(), waiting, elsewhere, evidence({ id: 'gone', deleted: 1 })])!;
    expect(query.itemsVersion).toBe(2);
    expect(query.items.map((i) => [i.kind, i.logged, i.amount])).toEqual([
      ['fewerStops', '121 stops', 450],
      ['evidence', waiting.id, 0],
      ['evidence', evidence().id, 0],
    ]);
    expect(query.total).toBe(450);
    expect(firstBrokenLink(query.items)).toBeNull();
    expect(evidenceChanges(query.items, [evidence(), waiting])).toEqual([]);
  });

  it('names an item changed or removed since the query was made', () => {
    const query = makeQuery('check-1', [difference()], '2026-03-20', [evidence(), waiting])!;
    expect(evidenceChanges(query.items, [evidence({ text: 'Left at no. 12' })])).toEqual([
      { id: waiting.id, words: 'Waiting time: 55 minutes at Depot', state: 'removed' },
      { id: evidence().id, words: 'Photo (proof of delivery)', state: 'changed' },
    ]);
    expect(evidenceChanges(query.items, [evidence(), { ...waiting, deleted: 1 }]).map((c) => c.state)).toEqual(['removed']);
  });

  it('evidenceFor: a query has what it recorded and what was kept on it; a range has what its days hold', () => {
    const onQuery = evidence({ id: 'q-note', type: 'note', text: 'Phoned the depot', photoId: null, purpose: null, statementLineId: null, statementQueryId: 'query-1', recordedAt: '2026-03-21T09:00:00Z' });
    const query = makeQuery('check-1', [difference()], '2026-03-20', [evidence(), waiting])!;
    const sources = {
      evidence: [evidence(), waiting, onQuery, evidence({ id: 'other', statementLineId: 'line-9' })],
      entries: [{ id: 'day-1', date: '2026-03-02' }],
      lines: [
        { id: 'line-1', date: '2026-03-02' },
        { id: 'line-9', date: '2026-04-01' },
      ],
      queries: [{ id: 'query-1', madeOn: '2026-03-20', items: query.items }],
    };
    expect(evidenceFor({ queryId: 'query-1' }, sources).map((e) => [e.evidence.id, e.day, e.on])).toEqual([
      [waiting.id, '2026-03-02', 'day'],
      [evidence().id, '2026-03-02', 'line'],
      ['q-note', '2026-03-20', 'query'],
    ]);
    expect(evidenceFor({ from: '2026-03-01', to: '2026-03-31' }, sources).map((e) => e.evidence.id)).toEqual([waiting.id, evidence().id, 'q-note']);
    expect(evidenceFor({ from: '2026-04-01', to: '2026-04-30' }, sources).map((e) => e.evidence.id)).toEqual(['other']);
  });

  it('the canonical text covers every field, in a fixed order', () => {
    expect(canonicalEvidence('id-1', waiting)).toBe(
      '{"id":"id-1","entryId":"day-1","statementLineId":null,"statementQueryId":null,"type":"waiting","recordedAt":"2026-03-02T06:40:00.000Z","text":"","photoId":null,"purpose":null,"minutes":55,"place":"Depot","fromWhom":""}',
    );
  });
});

const anEvidence: fc.Arbitrary<EvidenceRecord> = fc.record({
  id: fc.uuid(),
  entryId: fc.constant(null),
  statementLineId: fc.constant('line-1'),
  statementQueryId: fc.constant(null),
  type: fc.constantFrom('note', 'photo', 'waiting', 'instruction'),
  recordedAt: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  text: fc.string({ maxLength: 30 }),
  photoId: fc.option(fc.uuid(), { nil: null }),
  purpose: fc.option(fc.constantFrom('proofOfDelivery', 'endOfDaySummary', 'damage', 'other'), { nil: null }),
  minutes: fc.option(fc.integer({ min: 1, max: 1440 }), { nil: null }),
  place: fc.string({ maxLength: 10 }),
  fromWhom: fc.string({ maxLength: 10 }),
  createdAt: fc.constant('2026-03-02T14:06:00Z'),
  deleted: fc.constant(0 as const),
});

/** One field of the item changed to another value of its kind. */
const CHANGES: readonly ((e: EvidenceRecord) => EvidenceRecord)[] = [
  (e) => ({ ...e, text: `${e.text}!` }),
  (e) => ({ ...e, recordedAt: new Date(Date.parse(e.recordedAt) + 1000).toISOString() }),
  (e) => ({ ...e, type: e.type === 'note' ? 'photo' : 'note' }),
  (e) => ({ ...e, photoId: e.photoId === null ? '0190a6e2-7c1d-7000-8000-000000000e09' : null }),
  (e) => ({ ...e, purpose: e.purpose === 'damage' ? 'other' : 'damage' }),
  (e) => ({ ...e, minutes: (e.minutes ?? 0) + 1 }),
  (e) => ({ ...e, place: `${e.place}x` }),
  (e) => ({ ...e, fromWhom: `${e.fromWhom}x` }),
  (e) => ({ ...e, statementLineId: null, entryId: 'day-1' }),
];

describe('the chain over differences and evidence', () => {
  it('detects any change to a recorded evidence item, and any removal', () => {
    fc.assert(
      fc.property(fc.uniqueArray(anEvidence, { minLength: 1, maxLength: 5, selector: (e) => e.id }), fc.nat(), fc.nat({ max: CHANGES.length }), (items, at, which) => {
        const query = makeQuery('check-1', [difference()], '2026-03-20', items)!;
        expect(evidenceChanges(query.items, items)).toEqual([]);
        const index = at % items.length;
        const target = items[index]!;
        const now = items.map((e, i) => (i !== index ? e : which === CHANGES.length ? { ...e, deleted: 1 as const } : CHANGES[which]!(e)));
        const changes = evidenceChanges(query.items, now);
        expect(changes.map((c) => c.id)).toEqual([target.id]);
        expect(changes[0]!.state).toBe(which === CHANGES.length ? 'removed' : 'changed');
      }),
    );
  });

  it('detects any change to a recorded item itself, difference or evidence, from that item on', () => {
    fc.assert(
      fc.property(fc.uniqueArray(anEvidence, { minLength: 1, maxLength: 4, selector: (e) => e.id }), fc.nat(), fc.constantFrom('words', 'logged', 'paid', 'amount', 'date'), (items, at, field) => {
        const recorded = chainItems([difference(), ...evidenceToRecord([difference()], items)].map(({ date, kind, words, logged, paid, cardRate, amount }) => ({ date, kind, words, logged, paid, cardRate, amount })));
        const index = at % recorded.length;
        const changed = recorded.map((i) => ({ ...i }));
        const item = changed[index]!;
        if (field === 'amount') item.amount += 1;
        else if (field === 'date') item.date = item.date === null ? '2026-01-01' : null;
        else item[field] = `${item[field]}x`;
        expect(firstBrokenLink(recorded)).toBeNull();
        expect(firstBrokenLink(changed)).toBe(index);
      }),
    );
  });
});
