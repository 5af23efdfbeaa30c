import { useLiveQuery } from 'dexie-react-hooks';
import { readPaySetup, type PaySetup } from '@/lib/sync-react/use-pay-setup';
import { useSyncHandle } from '@/lib/sync-react/use-sync';

export type PaySetupRead = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; setup: PaySetup };

/** The pay setup, live, with a failed read as a state of its own (spec: "Failed to load payment settings"). */
export function usePaySetupRead(): PaySetupRead {
  const { db } = useSyncHandle();
  return (
    useLiveQuery(
      () =>
        readPaySetup(db).then(
          (setup): PaySetupRead => ({ status: 'ready', setup }),
          (): PaySetupRead => ({ status: 'failed' }),
        ),
      [db],
    ) ?? { status: 'loading' }
  );
}
