// A statement check's differences as "Query this" lists them: its lines matched to the log and
// the card in force each day (without lines, its whole difference as one item), and money paid
// back for an earlier query explained rather than counted again. One reading for every place
// that offers "Query this": the check's own page and its card in History.
import { matchStatement, type MatchInput, type StatementMatch } from '@/core/statement-lines/match-statement';
import { claimsOn, explainPaidBack } from './paid-back';

export interface CheckMatchInput extends Omit<MatchInput, 'check'> {
  check: MatchInput['check'] & { id: string };
  /** The queries on the device: those whose money paid back this check carries are explained. */
  queries: Parameters<typeof claimsOn>[1];
}

/** The check's match; `lines` may hold every check's: only this check's are read. */
export function matchCheck({ check, lines, queries, ...rest }: CheckMatchInput): StatementMatch {
  const own = lines.filter((l) => l.invoiceId === check.id);
  return explainPaidBack(matchStatement({ ...rest, check, lines: own }), claimsOn(check.id, queries));
}
