// The server's golden pull (crates/server/tests/golden/sync-wire/pull-all.json): real records
// of every kind the server accepted, for tests that want one of each without writing them.
import pullAll from '../../../crates/server/tests/golden/sync-wire/pull-all.json?raw';

export interface GoldenChange {
  kind: string;
  id: string;
  deleted: boolean;
  data?: Record<string, unknown>;
}

/** Every change of the golden pull (the default courier's id is `USER`). */
export function goldenPullChanges(): GoldenChange[] {
  return (JSON.parse(pullAll) as { changes: GoldenChange[] }).changes;
}
