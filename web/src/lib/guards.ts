// Hand-written checks for the few server answers the landing and login pages read (the session,
// sign-in answers, error bodies, the offered sign-in methods, the OpenID popup's message): zod
// costs ~26 KB of gzip JS, so it stays out of the first load (issue 15) and these stand in for
// it there. Each one accepts and returns exactly what the zod schema it replaced did; its tests
// run both over the same cases, generated ones included.

/** What `request` needs of a schema. A zod schema has it, and so does `validator(read)`. */
export interface Validator<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error?: unknown };
}

/** A Validator from a function that returns the checked value, or undefined when it does not fit. */
export function validator<T>(read: (value: unknown) => T | undefined): Validator<T> {
  return {
    safeParse(value) {
      const data = read(value);
      return data === undefined ? { success: false, error: new TypeError('unexpected shape') } : { success: true, data };
    },
  };
}

/** A JSON object (zod's z.object accepts no array and no null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isString(value: unknown): value is string {
  return typeof value === 'string';
}

export function isBoolean(value: unknown): value is boolean {
  return typeof value === 'boolean';
}

/** `value` where zod's `.optional()` takes it: absent or undefined passes, anything else must fit. */
export function isOptional<T>(value: unknown, fits: (value: unknown) => value is T): value is T | undefined {
  return value === undefined || fits(value);
}

export function isNullableString(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}
