// "Query this": the one button that makes a statement query from a check's differences (on the
// check's own page and on its card in History), then opens the query. Held while the write
// runs, so a second tap cannot make a second query.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import type { Difference } from '@/core/statement-lines/match-statement';
import { statementQueryPage } from '@/lib/paths';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useNow } from '@/lib/use-now';
import { localDay } from '@/lib/week';
import { makeStatementQuery } from './commands';

export function QueryThisButton({ checkId, differences, className }: { checkId: string; differences: readonly Difference[]; className?: string | undefined }) {
  const handle = useSyncHandle();
  const navigate = useNavigate();
  const today = localDay(useNow());
  const [making, setMaking] = useState(false);
  const [failed, setFailed] = useState(false);
  const make = async () => {
    setMaking(true);
    setFailed(false);
    try {
      const made = await makeStatementQuery(handle, checkId, differences, today);
      if (made) await navigate(statementQueryPage(made.id));
    } catch {
      // The device would not store it (its storage full or closed): nothing was written.
      setFailed(true);
    } finally {
      setMaking(false);
    }
  };
  return (
    <>
      <Button className={className} disabled={making} onClick={() => void make()}>
        Query this
      </Button>
      <FormAlert message={failed ? 'The query could not be saved on this device. Nothing was changed; try again.' : null} />
    </>
  );
}
