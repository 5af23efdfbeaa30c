import fc from 'fast-check';
import { expect } from 'vitest';
import type { z } from 'zod';
import type { Validator } from '@/lib/guards';

/**
 * Holds a hand-written check (lib/guards.ts) to the zod schema it stands in for: the same
 * verdict and, when it passes, the same value (same keys: an optional key absent stays absent),
 * for the listed cases and for values drawn from `arbitrary`.
 */
export function expectSameAsZod(guard: Validator<unknown>, schema: z.ZodType, cases: unknown[], arbitrary: fc.Arbitrary<unknown>): void {
  const verdict = (value: unknown) => {
    const ours = guard.safeParse(value);
    const theirs = schema.safeParse(value);
    expect(ours.success, JSON.stringify(value)).toBe(theirs.success);
    if (ours.success && theirs.success) expect(ours.data).toStrictEqual(theirs.data);
    return ours.success;
  };
  const passed = cases.map(verdict);
  // The cases must try both answers, or they prove little.
  expect(passed).toContain(true);
  expect(passed).toContain(false);
  fc.assert(fc.property(arbitrary, (value) => void verdict(value)), { numRuns: 500 });
}

/** Mostly values of the expected type, sometimes anything else JSON can carry. */
export function usually<T>(fits: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 4, arbitrary: fits }, { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string(), fc.constant([]), fc.constant({})) });
}
