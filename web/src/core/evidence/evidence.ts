// Evidence kept at the time (issue 28): notes, photos, waiting times and instructions a driver
// keeps on a day, a statement line or a statement query. Plain functions of records: what an
// item says in words, the canonical text a statement query's chain records of it (so a later
// change or removal shows), which items a query or a range of days has (`evidenceFor`, the one
// reading the evidence bundle uses too), and what changed since a query was made.
import { sha256Hex } from '@/core/mtd/sha256';
import type { ChainedItem, UnhashedItem } from '@/core/statement-queries/chain';
import type { EvidenceType, GeneratedEvidenceContent, PhotoPurpose } from '@/sync/contract.generated';

export type EvidenceContent = GeneratedEvidenceContent;

/** An evidence item as the device keeps it: its content, id and the server's stamps. */
export interface EvidenceRecord extends EvidenceContent {
  id: string;
  /** When the server first stored it (RFC 3339); the device's own time until it has synced. */
  createdAt: string;
  deleted?: 0 | 1;
  /** The server's copy (or its version: sync/types.ts LocalRecord) once it has one: only then is `createdAt` the server's. */
  server?: unknown;
}

/** The `kind` of a query item recording an evidence item (the server's EVIDENCE_ITEM_KIND). */
export const EVIDENCE_ITEM_KIND = 'evidence';

export const EVIDENCE_TYPE_WORDS: Record<EvidenceType, string> = {
  note: 'Note',
  photo: 'Photo',
  waiting: 'Waiting time',
  instruction: 'Instruction',
};

export const PURPOSE_WORDS: Record<PhotoPurpose, string> = {
  proofOfDelivery: 'proof of delivery',
  endOfDaySummary: "handheld's end-of-day summary",
  damage: 'damage',
  other: 'other',
};

/** "55 minutes", "1 hour 5 minutes". */
export function minutesWords(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const m = `${rest} minute${rest === 1 ? '' : 's'}`;
  if (hours === 0) return m;
  const h = `${hours} hour${hours === 1 ? '' : 's'}`;
  return rest === 0 ? h : `${h} ${m}`;
}

/** The item in one line: "Photo (proof of delivery)", "Waiting time: 55 minutes at Depot". */
export function evidenceWords(e: EvidenceContent): string {
  switch (e.type) {
    case 'note':
      return `Note: ${firstLine(e.text)}`;
    case 'photo':
      return `Photo (${PURPOSE_WORDS[e.purpose ?? 'other']})${e.text ? `: ${firstLine(e.text)}` : ''}`;
    case 'waiting':
      return `Waiting time: ${minutesWords(e.minutes ?? 0)}${e.place ? ` at ${e.place}` : ''}`;
    case 'instruction':
      return `Instruction from ${e.fromWhom}: ${firstLine(e.text)}`;
  }
}

/** A query item's words are one line of at most 300 characters (the server's bound). */
function firstLine(text: string): string {
  const line = (text.split(/\r?\n/, 1)[0] ?? '').replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/** Every content field in a fixed order, as compact JSON: what the chain's `paid` is the SHA-256 of. */
export function canonicalEvidence(id: string, e: EvidenceContent): string {
  const { entryId, statementLineId, statementQueryId, type, recordedAt, text, photoId, purpose, minutes, place, fromWhom } = e;
  return JSON.stringify({ id, entryId, statementLineId, statementQueryId, type, recordedAt, text, photoId, purpose, minutes, place, fromWhom });
}

export function evidenceHash(e: EvidenceRecord): string {
  return sha256Hex(canonicalEvidence(e.id, e));
}

/** The query item that records `e` as it is now: its id, the hash of what it says, no money. */
export function evidenceItem(e: EvidenceRecord, date: string | null): UnhashedItem {
  return { date, kind: EVIDENCE_ITEM_KIND, words: evidenceWords(e), logged: e.id, paid: evidenceHash(e), cardRate: null, amount: 0 };
}

export function isEvidenceItem(item: Pick<ChainedItem, 'kind'>): boolean {
  return item.kind === EVIDENCE_ITEM_KIND;
}

/** What became of an evidence item a query recorded. */
export interface EvidenceChange {
  id: string;
  /** The words recorded when the query was made. */
  words: string;
  state: 'changed' | 'removed';
}

/** The recorded evidence items that changed, or were removed, since the query was made. */
export function evidenceChanges(items: readonly ChainedItem[], live: readonly EvidenceRecord[]): EvidenceChange[] {
  const byId = new Map(live.filter((e) => e.deleted !== 1).map((e) => [e.id, e]));
  const changes: EvidenceChange[] = [];
  for (const item of items.filter(isEvidenceItem)) {
    const now = byId.get(item.logged);
    if (!now) changes.push({ id: item.logged, words: item.words, state: 'removed' });
    else if (evidenceHash(now) !== item.paid) changes.push({ id: item.logged, words: item.words, state: 'changed' });
  }
  return changes;
}

/** The days, lines and queries evidence may belong to, as `evidenceFor` needs them. */
export interface EvidenceSources {
  evidence: readonly EvidenceRecord[];
  entries: readonly { id: string; date: string; deleted?: 0 | 1 }[];
  lines: readonly { id: string; date: string; deleted?: 0 | 1 }[];
  queries: readonly { id: string; madeOn: string; items: readonly ChainedItem[]; deleted?: 0 | 1 }[];
}

/** A query, or the days from..to inclusive (YYYY-MM-DD). */
export type EvidenceScope = { queryId: string } | { from: string; to: string };

/** An evidence item with the day it is about (its day's, line's or query's). */
export interface EvidenceWithDay {
  evidence: EvidenceRecord;
  /** YYYY-MM-DD: the day's date, the line's date, or the day the query was made. */
  day: string | null;
  /** Where it is kept. */
  on: 'day' | 'line' | 'query';
}

/**
 * The live evidence of a scope, oldest recorded first. A query's: the items it recorded when it
 * was made (kept on the days and lines its differences name) and those kept on the query itself
 * since. A range's: every item on a day, line or query whose day is in the range.
 */
export function evidenceFor(scope: EvidenceScope, sources: EvidenceSources): EvidenceWithDay[] {
  const live = <T extends { deleted?: 0 | 1 }>(records: readonly T[]) => records.filter((r) => r.deleted !== 1);
  const dayOf = new Map<string, string>();
  for (const e of live(sources.entries)) dayOf.set(e.id, e.date);
  for (const l of live(sources.lines)) dayOf.set(l.id, l.date);
  for (const q of live(sources.queries)) dayOf.set(q.id, q.madeOn);
  const withDay = (e: EvidenceRecord): EvidenceWithDay => {
    const holder = e.entryId ?? e.statementLineId ?? e.statementQueryId ?? '';
    return { evidence: e, day: dayOf.get(holder) ?? null, on: e.entryId ? 'day' : e.statementLineId ? 'line' : 'query' };
  };
  let kept: EvidenceRecord[];
  if ('queryId' in scope) {
    const query = sources.queries.find((q) => q.id === scope.queryId);
    const recorded = new Set((query?.items ?? []).filter(isEvidenceItem).map((i) => i.logged));
    kept = live(sources.evidence).filter((e) => e.statementQueryId === scope.queryId || recorded.has(e.id));
  } else {
    kept = live(sources.evidence).filter((e) => {
      const day = withDay(e).day;
      return day !== null && day >= scope.from && day <= scope.to;
    });
  }
  return kept.map(withDay).sort((a, b) => (a.evidence.recordedAt < b.evidence.recordedAt ? -1 : a.evidence.recordedAt > b.evidence.recordedAt ? 1 : a.evidence.id < b.evidence.id ? -1 : 1));
}

/** The evidence a new query records: the live items on the days and lines its differences name. */
export function evidenceToRecord(
  differences: readonly { date: string | null; entryIds: readonly string[]; lineIds: readonly string[] }[],
  evidence: readonly EvidenceRecord[],
): UnhashedItem[] {
  const dayOf = new Map<string, string | null>();
  for (const d of differences) {
    for (const id of [...d.entryIds, ...d.lineIds]) if (!dayOf.has(id)) dayOf.set(id, d.date);
  }
  return evidence
    .filter((e) => e.deleted !== 1)
    .filter((e) => dayOf.has(e.entryId ?? '') || dayOf.has(e.statementLineId ?? ''))
    .sort((a, b) => (a.recordedAt < b.recordedAt ? -1 : a.recordedAt > b.recordedAt ? 1 : a.id < b.id ? -1 : 1))
    .map((e) => evidenceItem(e, dayOf.get(e.entryId ?? '') ?? dayOf.get(e.statementLineId ?? '') ?? null));
}
