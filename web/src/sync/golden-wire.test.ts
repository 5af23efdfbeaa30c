import { describe, expect, it } from 'vitest';
import pullAll from '../../../crates/server/tests/golden/sync-wire/pull-all.json?raw';
import pushAnswers from '../../../crates/server/tests/golden/sync-wire/push-answers.jsonl?raw';
import { pullPageSchema } from './api';
import { KIND_NAMES } from './contract.generated';

// The server's golden wire test (crates/server/tests/integration/sync_wire.rs) pins what it answers an app
// cached before issue 32, byte for byte. This app must read the same bytes: every change of
// every kind in that pull parses with the schemas generated from the contract, none is dropped.
describe("the golden wire the server's test pins", () => {
  it('parses as a pull page with every change kept', () => {
    const raw = JSON.parse(pullAll) as { changes: { kind: string }[] };
    const page = pullPageSchema.parse(raw);
    expect(page.changes).toHaveLength(raw.changes.length);
    const kinds = new Set(page.changes.map((change) => change.kind));
    // Kinds added after the capture are not in it (an app cached then never pushed one).
    const newer = new Set<string>(['sentUpdate', 'statementQuery']);
    for (const kind of KIND_NAMES.filter((name) => !newer.has(name))) expect(kinds, kind).toContain(kind);
  });

  it("has push answers this app reads (each refusal's message is there)", () => {
    for (const line of pushAnswers.trim().split('\n')) {
      const { results } = JSON.parse(line) as { results: { status: string; message?: string }[] };
      for (const result of results) if (result.status === 'rejected') expect(result.message).toBeTruthy();
    }
  });
});
