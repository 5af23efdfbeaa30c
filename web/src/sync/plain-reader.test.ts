import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectSameAsZod } from '@/testing/same-as-zod';
import { validator } from '@/lib/guards';
import type { z } from '../lib/zod';
import { changeCheck, knownKinds, readChange } from './api';
import { ASK_ZOD, plainReader } from './plain-reader';

// The plain reader of pulled changes (issue 30) against the zod schemas it stands in for: it
// answers only where zod accepts, with zod's value, and leaves everything else to zod.

interface Def {
  type: string;
  checks?: readonly { _zod: { def: { check: string; format?: string } } }[];
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  entries?: Record<string, string | number>;
  values?: readonly unknown[];
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Values JSON (and a little more) can carry that fit few schemas. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(1.5, -0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, -(2 ** 53)),
  fc.string(),
  fc.constant([]),
  fc.constant({}),
);

/**
 * Values for `schema`: well-formed ones only (`bent` 0), or now and then bent out of shape: a
 * wrong type anywhere, a field missing, given as undefined or added.
 */
function valuesOf(schema: z.ZodType, bent: number): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const formats = (def.checks ?? []).map((c) => c._zod.def.format);
  let fits: fc.Arbitrary<unknown>;
  switch (def.type) {
    case 'string':
      fits = fc.string({ maxLength: 12 });
      break;
    case 'boolean':
      fits = fc.boolean();
      break;
    case 'number':
      fits = formats.includes('safeint') ? fc.oneof(fc.integer(), fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER)) : fc.double({ noNaN: true, noDefaultInfinity: true });
      break;
    case 'enum':
      fits = fc.constantFrom(...Object.values(def.entries!));
      break;
    case 'literal':
      fits = fc.constantFrom(...def.values!);
      break;
    case 'nullable':
      fits = fc.option(valuesOf(def.innerType!, bent), { nil: null });
      break;
    case 'optional':
    case 'default':
      fits = valuesOf(def.innerType!, bent);
      break;
    case 'array':
      fits = fc.array(valuesOf(def.element!, bent), { maxLength: 3 });
      break;
    case 'object': {
      const fields = Object.entries(def.shape!).map(([key, field]) => {
        const type = defOf(field).type;
        const value = valuesOf(field, bent);
        // An optional field may be absent even when well-formed; a defaulted one only when bent.
        const absentOk = type === 'optional';
        return [key, absentOk || bent > 0 ? fc.option(value, { nil: ABSENT, freq: absentOk ? 3 : 20 }) : value] as const;
      });
      const extra = bent > 0 ? fc.dictionary(fc.constantFrom('extra', 'kind', 'version', '__x'), junk, { maxKeys: 1 }) : fc.constant({});
      fits = fc.tuple(fc.tuple(...fields.map(([, v]) => v)), extra).map(([values, more]) => {
        const out: Record<string, unknown> = bent > 0 ? { ...more } : {};
        fields.forEach(([key], i) => {
          if (values[i] !== ABSENT) out[key] = values[i];
        });
        return out;
      });
      break;
    }
    default:
      // The readers refuse kinds they do not know; so do these tests.
      throw new Error(`no values for a ${def.type}`);
  }
  return bent > 0 ? fc.oneof({ weight: bent, arbitrary: fits }, { weight: 1, arbitrary: junk }) : fits;
}
const ABSENT = Symbol('absent');

const withReaders = knownKinds.map((kind) => [kind, changeCheck(kind)!] as const).filter(([, check]) => check.read !== null);

describe('the plain reader of pulled changes', () => {
  it('has a reader for every record kind and the profile (the settings have a transform: zod reads them)', () => {
    expect(withReaders.map(([kind]) => kind)).toEqual(knownKinds.filter((kind) => kind !== 'settings'));
  });

  it.each(withReaders)('reads every well-formed %s change itself, as zod does', (_kind, { schema, read }) => {
    fc.assert(
      fc.property(valuesOf(schema, 0), (value) => {
        const theirs = schema.safeParse(value);
        expect(theirs.success).toBe(true);
        expect(read!(value)).toStrictEqual(theirs.data);
      }),
      { numRuns: 200 },
    );
  });

  it.each(withReaders)('answers a bent %s change only where zod accepts it, with the same value', (_kind, { schema, read }) => {
    let answered = 0;
    let refused = 0;
    fc.assert(
      fc.property(valuesOf(schema, 6), (value) => {
        const ours = read!(value);
        const theirs = schema.safeParse(value);
        if (!theirs.success) refused += 1;
        if (ours === ASK_ZOD) return;
        answered += 1;
        expect(theirs.success, JSON.stringify(value)).toBe(true);
        expect(ours).toStrictEqual(theirs.data);
      }),
      { numRuns: 400 },
    );
    // Both answers were tried, or the property proves little.
    expect(answered).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it('gives a change the same verdict, value and errors as its schema, whoever reads it', () => {
    const cases: unknown[] = [];
    for (const [, { schema }] of withReaders) {
      const well = fc.sample(valuesOf(schema, 0), 1)[0];
      cases.push(well, { ...(well as object), version: 1.5 }, { ...(well as object), data: null });
    }
    const ours = validator((value) => {
      const read = readChange(value);
      return read?.success ? read.data : undefined;
    });
    for (const [kind, { schema }] of withReaders) {
      expectSameAsZod(ours, schema, cases.filter((c) => (c as { kind: string }).kind === kind), valuesOf(schema, 4));
      const bad = fc.sample(valuesOf(schema, 2), 50).filter((value) => !schema.safeParse(value).success);
      for (const value of bad) {
        // Only a change that says it is of this kind is read by this kind's schema.
        if (typeof value !== 'object' || value === null || (value as { kind?: unknown }).kind !== kind) continue;
        const read = readChange(value)!;
        expect(read.success).toBe(false);
        if (!read.success) expect(read.issues).toEqual(schema.safeParse(value).error!.issues);
      }
    }
  });

  it('leaves a schema with a bound, a refinement or a catchall to zod', async () => {
    const { z: zod } = await import('../lib/zod');
    expect(plainReader(zod.object({ a: zod.string().min(1) }))).toBeNull();
    expect(plainReader(zod.object({ a: zod.number().int().positive() }))).toBeNull();
    expect(plainReader(zod.looseObject({ a: zod.string() }))).toBeNull();
    expect(plainReader(zod.object({ a: zod.string() }).refine(() => true))).toBeNull();
    expect(plainReader(zod.object({ a: zod.string().transform((s) => s.length) }))).toBeNull();
    expect(plainReader(zod.object({ a: zod.array(zod.string()).max(2) }))).toBeNull();
  });
});
