// Money paid back for a query arrives on a later statement, as an adjustment line or a higher
// total. Matching that later statement against its own period's log would show it as pay the
// log does not explain (an adjustment "not in your log", or lines short of the total); once the
// driver records which statement carries it, those differences are explained instead: "paid back
// for the query of <date>". Amounts are only relabelled and split, never changed, so the named
// differences still add up to the statement's difference; and across the two statements the
// money counts once: the earlier query's total less what was paid back, plus what the later
// statement still owes, is the two statements' differences added up.
import type { Difference, DifferenceKind, StatementMatch } from '@/core/statement-lines/match-statement';
import { formatPence, formatShortDate } from '@/lib/format';

/** A query whose money paid back this statement carries. */
export interface PaidBackClaim {
  queryId: string;
  madeOn: string;
  amount: number;
}

/** The overpayments money paid back can explain, the most specific first. */
const CARRIERS: readonly DifferenceKind[] = ['adjustment', 'linesAgainstTotal', 'unexplained'];

function paidBackWords(claim: PaidBackClaim): string {
  return `paid back for the query of ${formatShortDate(claim.madeOn)}`;
}

/**
 * The later statement's match with its overpayments explained by the claims it carries, oldest
 * query first. A claim it cannot find is named at £0.00 ("not on this statement"), never hidden.
 */
export function explainPaidBack(match: StatementMatch, claims: readonly PaidBackClaim[]): StatementMatch {
  if (claims.length === 0) return match;
  let differences = [...match.differences];
  const ordered = [...claims].sort((a, b) => (a.madeOn === b.madeOn ? a.queryId.localeCompare(b.queryId) : a.madeOn < b.madeOn ? -1 : 1));
  for (const claim of ordered) {
    let left = claim.amount;
    for (const kind of CARRIERS) {
      const next: Difference[] = [];
      for (const d of differences) {
        if (left === 0 || d.kind !== kind || d.amount >= 0) {
          next.push(d);
          continue;
        }
        const taken = Math.min(left, -d.amount);
        left -= taken;
        next.push({
          ...d,
          kind: 'paidBack',
          words: `${formatPence(taken)} ${paidBackWords(claim)}`,
          logged: 'owed on an earlier statement',
          paid: formatPence(taken),
          cardRate: null,
          amount: -taken,
        });
        if (taken < -d.amount) next.push({ ...d, words: `${d.words} (${formatPence(taken)} of it ${paidBackWords(claim)})`, amount: d.amount + taken });
      }
      differences = next;
    }
    if (left > 0) {
      differences.push({
        kind: 'paidBackNotFound',
        date: null,
        words: `${formatPence(left)} recorded as ${paidBackWords(claim)} is not on this statement`,
        logged: `${formatPence(claim.amount)} paid back`,
        paid: left === claim.amount ? 'not on the statement' : `${formatPence(claim.amount - left)} found`,
        cardRate: null,
        amount: 0,
        entryIds: [],
        lineIds: [],
      });
    }
  }
  return { ...match, differences };
}

/** The claims on statement check `checkId`: the queries whose money paid back it carries. */
export function claimsOn(checkId: string, queries: readonly { id: string; madeOn: string; paidBackAmount: number | null; paidBackCheckId: string | null }[]): PaidBackClaim[] {
  return queries.flatMap((q) => (q.paidBackCheckId === checkId && q.paidBackAmount !== null ? [{ queryId: q.id, madeOn: q.madeOn, amount: q.paidBackAmount }] : []));
}
