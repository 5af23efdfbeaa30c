// History's statement checks with what each card offers about a check that does not match:
// "Query this" (the same differences, button and write as the check's own page), or, once a
// query was made about it, the way to that query instead of a second one. The lines and
// queries are other features' records, so they are read here, on the screen, not in the view.
import { useMemo, type ComponentProps, type ReactNode } from 'react';
import { Link } from 'react-router';
import { matchCheck } from '@/core/statement-queries/check-match';
import { canQuery, queriesAbout } from '@/core/statement-queries/query';
import { StatementChecksView } from '@/features/statement-checks/statement-checks-view';
import { useStatementLines } from '@/features/statement-lines/use-statement-lines';
import { QueryThisButton } from '@/features/statement-queries/query-this-button';
import { useStatementQueries } from '@/features/statement-queries/use-statement-queries';
import { formatShortDate } from '@/lib/format';
import { statementQueryPage } from '@/lib/paths';
import type { PaySetup } from '@/lib/sync-react/use-pay-setup';
import { DEFAULT_COURIER } from '@/sync/default-courier';
import type { LocalStatementCheck } from '@/sync/types';
import styles from './history-page.module.css';

type ViewProps = Omit<ComponentProps<typeof StatementChecksView>, 'queryAction'>;

export function StatementChecksWithQueries({ pay, ...view }: ViewProps & { pay: PaySetup }) {
  const lines = useStatementLines();
  const queries = useStatementQueries();
  const { entries } = view;
  const queryAction = useMemo(() => {
    if (lines === undefined || queries === undefined) return undefined;
    // Each card's match once per change of the records it reads, not on every render.
    const decided = new WeakMap<LocalStatementCheck, ReactNode>();
    return (check: LocalStatementCheck): ReactNode => {
      if (!decided.has(check)) {
        const latest = queriesAbout(check.id, queries).at(-1);
        // Before the first pull brings the couriers, the default courier's calendar, as the view does.
        const calendar = pay.couriers.find((c) => c.id === check.courierId) ?? DEFAULT_COURIER;
        let action: ReactNode = null;
        if (latest) {
          action = (
            <Link className={styles.queryLink} to={statementQueryPage(latest.id)}>
              Query made {formatShortDate(latest.madeOn)}
            </Link>
          );
        } else {
          const { differences } = matchCheck({ check, days: entries, lines, cards: pay.cards, deductions: pay.deductions, calendar, queries });
          if (canQuery(differences)) action = <QueryThisButton checkId={check.id} differences={differences} />;
        }
        decided.set(check, action);
      }
      return decided.get(check);
    };
  }, [entries, pay, lines, queries]);
  return <StatementChecksView {...view} queryAction={queryAction} />;
}
