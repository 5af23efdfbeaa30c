// A fast reader of pulled changes, made once from the same zod schemas (issue 30). A ten-year
// first sync checks 6,255 changes, and zod's interpreted parsers (no compiled ones under our
// CSP: lib/zod.ts) spent about 0.4 s of a slow phone's main thread on them. The reader walks
// a schema's definition once and checks a change with plain closures.
//
// It only ever says "this is what zod would give" or "ask zod": it takes the plain, well-formed
// case (every field of the right type, an optional one absent or given) and hands anything
// else (a missing or undefined field, a default to fill, a wrong type) to the schema itself,
// so the changes accepted, the values returned and the errors given are zod's
// (plain-reader.test.ts holds it to that, generated cases included). A schema with anything it
// does not know (a refinement, a bound, a transform) gets no reader: zod checks it all.

import type { z } from '../lib/zod';

/** The reader's answer when zod must decide. */
export const ASK_ZOD: unique symbol = Symbol('ask zod');

type Read = (value: unknown) => unknown;

/** What the reader needs of a zod schema's definition (zod 4's `_zod.def`). */
interface Definition {
  type: string;
  checks?: readonly { _zod: { def: { check: string; format?: string } } }[];
  coerce?: boolean;
  shape?: Record<string, z.ZodType>;
  catchall?: unknown;
  element?: z.ZodType;
  innerType?: z.ZodType;
  entries?: Record<string, string | number>;
  values?: readonly unknown[];
}

const definitionOf = (schema: z.ZodType): Definition => (schema as unknown as { _zod: { def: Definition } })._zod.def;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A reader for `schema`, or null when it holds something this reader does not know. */
export function plainReader(schema: z.ZodType): Read | null {
  try {
    return compile(schema);
  } catch (error) {
    if (error instanceof Unknown) return null;
    throw error;
  }
}

class Unknown extends Error {}

function compile(schema: z.ZodType): Read {
  const def = definitionOf(schema);
  const checks = def.checks ?? [];
  if (def.coerce) throw new Unknown();
  switch (def.type) {
    case 'string':
      if (checks.length > 0) throw new Unknown();
      return (value) => (typeof value === 'string' ? value : ASK_ZOD);
    case 'boolean':
      if (checks.length > 0) throw new Unknown();
      return (value) => (typeof value === 'boolean' ? value : ASK_ZOD);
    case 'number': {
      const formats = checks.map((check) => (check._zod.def.check === 'number_format' ? check._zod.def.format : 'other'));
      if (formats.length === 0) return (value) => (typeof value === 'number' && Number.isFinite(value) ? value : ASK_ZOD);
      if (formats.length === 1 && formats[0] === 'safeint') return (value) => (Number.isSafeInteger(value) ? value : ASK_ZOD);
      throw new Unknown();
    }
    case 'enum': {
      // Only string and number members: zod's enum takes exactly the entries' values.
      const values = new Set(Object.values(def.entries ?? {}));
      return (value) => (values.has(value as string | number) ? value : ASK_ZOD);
    }
    case 'literal': {
      const values = new Set(def.values ?? []);
      if ([...values].some((v) => typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean' && v !== null)) throw new Unknown();
      return (value) => (values.has(value) ? value : ASK_ZOD);
    }
    case 'nullable': {
      const inner = compile(def.innerType!);
      return (value) => (value === null ? null : inner(value));
    }
    case 'array': {
      if (checks.length > 0) throw new Unknown();
      const element = compile(def.element!);
      return (value) => {
        if (!Array.isArray(value)) return ASK_ZOD;
        const out = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i += 1) {
          const read = element(value[i]);
          if (read === ASK_ZOD) return ASK_ZOD;
          out[i] = read;
        }
        return out;
      };
    }
    case 'object':
      return compileObject(def);
    default:
      // optional and default are read by their object (an absent key); anything else is zod's.
      throw new Unknown();
  }
}

/** A field of an object: its reader, and whether it may be absent (zod's `.optional()`). */
interface Field {
  key: string;
  read: Read;
  optional: boolean;
}

function compileObject(def: Definition): Read {
  // A catchall (loose or strict objects) keeps or refuses unknown keys: zod's to decide.
  if (def.catchall !== undefined || (def.checks ?? []).length > 0) throw new Unknown();
  const fields: Field[] = Object.entries(def.shape ?? {}).map(([key, schema]) => {
    const field = definitionOf(schema);
    if (field.type === 'optional') {
      if ((field.checks ?? []).length > 0) throw new Unknown();
      return { key, read: compile(field.innerType!), optional: true };
    }
    // A field with a default (or anything else that fills an absent key) is read when given;
    // absent, zod fills it.
    if (field.type === 'default') {
      if ((field.checks ?? []).length > 0) throw new Unknown();
      return { key, read: compile(field.innerType!), optional: false };
    }
    return { key, read: compile(schema), optional: false };
  });
  return (value) => {
    if (!isObject(value)) return ASK_ZOD;
    const out: Record<string, unknown> = {};
    for (const { key, read, optional } of fields) {
      // `in`, as zod asks it; a key given as undefined is zod's to read.
      if (!(key in value)) {
        if (optional) continue;
        return ASK_ZOD;
      }
      const given = value[key];
      if (given === undefined) return ASK_ZOD;
      const result = read(given);
      if (result === ASK_ZOD) return ASK_ZOD;
      out[key] = result;
    }
    return out;
  };
}
