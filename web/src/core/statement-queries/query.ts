// A statement query: "Query this" freezes the differences a statement check names, with their
// total and the hash chain, dated the day it is made; afterwards only its tracking changes
// (sent, answered, paid back on a later statement, closed). Pure functions of records.
import type { Difference, DifferenceKind } from '@/core/statement-lines/match-statement';
import { addDays } from '@/lib/week';
import { evidenceToRecord, type EvidenceRecord } from '@/core/evidence/evidence';
import { chainItems, type ChainedItem } from './chain';

/**
 * The item layout and chain rule the server checks (its `itemsVersion`): version 2 chains the
 * evidence kept on the queried days and lines after the differences (version 1 queries, made
 * before evidence, still verify).
 */
export const ITEMS_VERSION = 2;

export interface QueryTracking {
  sentOn: string | null;
  answeredOn: string | null;
  paidBackAmount: number | null;
  paidBackOn: string | null;
  /** The later statement check that carries the money paid back. */
  paidBackCheckId: string | null;
  closedOn: string | null;
  note: string;
}

/** A query's content, as the kind `statementQuery` stores it. */
export interface QueryContent extends QueryTracking {
  statementCheckId: string;
  madeOn: string;
  itemsVersion: number;
  items: ChainedItem[];
  total: number;
}

/** Differences that are not a claim: a figure shown for context, or money already paid back. */
const NOT_QUERIED: ReadonlySet<DifferenceKind> = new Set(['addressCap', 'paidBack', 'paidBackNotFound']);

/** The differences a query lists: every one with an amount, but those already explained as paid back. */
export function queriedDifferences(differences: readonly Difference[]): Difference[] {
  return differences.filter((d) => d.amount !== 0 && !NOT_QUERIED.has(d.kind));
}

/** Whether "Query this" has anything to ask about. */
export function canQuery(differences: readonly Difference[]): boolean {
  return queriedDifferences(differences).length > 0;
}

/**
 * The query "Query this" makes today, its items frozen and chained: the differences, then the
 * evidence kept on the days and lines they name, as it is now; null with nothing to ask.
 */
export function makeQuery(statementCheckId: string, differences: readonly Difference[], madeOn: string, evidence: readonly EvidenceRecord[] = []): QueryContent | null {
  const queried = queriedDifferences(differences);
  if (queried.length === 0) return null;
  const items = chainItems([
    ...queried.map(({ date, kind, words, logged, paid, cardRate, amount }) => ({ date, kind, words, logged, paid, cardRate, amount })),
    ...evidenceToRecord(queried, evidence),
  ]);
  return {
    statementCheckId,
    madeOn,
    itemsVersion: ITEMS_VERSION,
    items,
    total: items.reduce((sum, item) => sum + item.amount, 0),
    sentOn: null,
    answeredOn: null,
    paidBackAmount: null,
    paidBackOn: null,
    paidBackCheckId: null,
    closedOn: null,
    note: '',
  };
}

/** The queries made about statement check `checkId`, oldest first (the last is the latest). */
export function queriesAbout<Q extends { statementCheckId: string; madeOn: string; createdAt: string }>(checkId: string, queries: readonly Q[]): Q[] {
  return queries.filter((q) => q.statementCheckId === checkId).sort((a, b) => (a.madeOn === b.madeOn ? a.createdAt.localeCompare(b.createdAt) : a.madeOn < b.madeOn ? -1 : 1));
}

export type QueryStage = 'made' | 'sent' | 'answered' | 'paidBack' | 'closed';

/** How far the query has gone, its furthest step. */
export function queryStage(q: QueryTracking): QueryStage {
  if (q.closedOn !== null) return 'closed';
  if (q.paidBackAmount !== null) return 'paidBack';
  if (q.answeredOn !== null) return 'answered';
  if (q.sentOn !== null) return 'sent';
  return 'made';
}

export const STAGE_WORDS: Record<QueryStage, string> = {
  made: 'Not sent yet',
  sent: 'Sent, waiting for an answer',
  answered: 'Answered',
  paidBack: 'Paid back',
  closed: 'Closed',
};

/** What is still owed of the query: its total less what was paid back (never below nothing). */
export function stillOwed(q: Pick<QueryContent, 'total' | 'paidBackAmount'>): number {
  return Math.max(0, q.total - (q.paidBackAmount ?? 0));
}

/** The day a sent, unanswered query is due its reminder: `days` after it was sent; null when none is due. */
export function reminderDay(q: QueryTracking, days: number): string | null {
  if (q.sentOn === null || q.answeredOn !== null || q.paidBackAmount !== null || q.closedOn !== null) return null;
  return addDays(q.sentOn, days);
}

/** The reminder setting's default and bounds (the server's, crates/domain/src/profile.rs). */
export const QUERY_REMINDER_DAYS = { default: 14, min: 1, max: 90 } as const;

/** The reminder's days as typed: a whole number within the bounds, or what to say instead. */
export function readReminderDays(typed: string): { days: number } | { error: string } {
  const text = typed.trim();
  const days = Number(text);
  if (!/^\d+$/.test(text) || days < QUERY_REMINDER_DAYS.min || days > QUERY_REMINDER_DAYS.max) return { error: `Choose ${QUERY_REMINDER_DAYS.min} to ${QUERY_REMINDER_DAYS.max} days` };
  return { days };
}
