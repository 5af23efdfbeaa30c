// A small JSON Schema (draft-04) checker for the tests, so the exported update is validated
// without a new dependency. It knows only the keywords the HMRC request schema uses and refuses
// a schema with any other, so a keyword can never be silently ignored.
type Schema = Record<string, unknown>;

const KNOWN = new Set([
  '$schema',
  'title',
  'description',
  'example',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'minimum',
  'maximum',
  'multipleOf',
  'format',
  'dependencies',
  'maxProperties',
]);

const isDate = (value: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
};

/** A number is a multiple of 0.01 when it has at most 2 decimals as JSON writes it. */
const hundredths = (value: number) => /^-?\d+(\.\d{1,2})?$/.test(String(value));

/** Every problem, as "path: what"; empty when the value is valid. */
export function schemaProblems(schema: Schema, value: unknown, path = '$'): string[] {
  for (const key of Object.keys(schema)) if (!KNOWN.has(key)) throw new Error(`schema keyword ${key} is not supported at ${path}`);
  const problems: string[] = [];
  const type = schema.type as string | undefined;
  if (type === 'object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path}: not an object`];
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const name of (schema.required ?? []) as string[]) if (!(name in object)) problems.push(`${path}: ${name} is required`);
    for (const [name, child] of Object.entries(object)) {
      const sub = properties[name];
      if (sub) problems.push(...schemaProblems(sub, child, `${path}.${name}`));
      else if (schema.additionalProperties === false) problems.push(`${path}: ${name} is not allowed`);
    }
    if (typeof schema.maxProperties === 'number' && Object.keys(object).length > schema.maxProperties) problems.push(`${path}: more than ${schema.maxProperties} properties`);
    for (const [name, dependent] of Object.entries((schema.dependencies ?? {}) as Record<string, Schema>)) {
      if (name in object) problems.push(...schemaProblems(dependent, value, `${path}(with ${name})`));
    }
  } else if (type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return [`${path}: not a number`];
    if (typeof schema.minimum === 'number' && value < schema.minimum) problems.push(`${path}: below ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) problems.push(`${path}: above ${schema.maximum}`);
    if (schema.multipleOf !== undefined && (schema.multipleOf !== 0.01 || !hundredths(value))) problems.push(`${path}: not a multiple of ${String(schema.multipleOf)}`);
  } else if (type === 'string') {
    if (typeof value !== 'string') return [`${path}: not a string`];
    if (schema.format === 'date' && !isDate(value)) problems.push(`${path}: not a YYYY-MM-DD date`);
  } else if (type !== undefined) {
    throw new Error(`schema type ${type} is not supported at ${path}`);
  } else if (schema.maxProperties !== undefined && typeof value === 'object' && value !== null && Object.keys(value).length > (schema.maxProperties as number)) {
    problems.push(`${path}: more than ${String(schema.maxProperties)} properties`);
  }
  return problems;
}
